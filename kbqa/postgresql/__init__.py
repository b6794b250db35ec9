"""Django's PostgreSQL backend with pooled connections checked when handed out (``base``)."""
