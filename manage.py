#!/usr/bin/env python
"""Django's command-line utility for administrative tasks."""

import os
import sys


def main() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "kbqa.settings")
    # A command is one process that connects itself: no psycopg pool (kbqa.settings), so a
    # database it cannot reach fails it at once, the reason on the last line.
    os.environ.setdefault("KBQA_DB_POOL", "0")
    from django.core.exceptions import ImproperlyConfigured
    from django.core.management import execute_from_command_line

    try:
        execute_from_command_line(sys.argv)
    except ImproperlyConfigured as exc:  # a setting to fix, said in one line, not a traceback
        sys.exit(f"manage.py: {exc}")
    except BrokenPipeError:
        # The reader of the output went away (`manage.py ask ... | head`): stop quietly, as
        # Python's documentation recommends (signal module, "Note on SIGPIPE"), with the
        # rest of the output sent nowhere so the interpreter's final flush cannot fail too.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        sys.exit(1)


if __name__ == "__main__":
    main()
