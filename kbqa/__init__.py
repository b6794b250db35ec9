"""kbqa: knowledge-base question answering whose citations are checked by code.

`kbqa` is the Django project package (settings, asgi, urls); `kbqa.core` is the pure-Python
answering core that never imports Django.
"""
