"""Model providers: one abstract streaming method each (after simonw/llm's ``Model.execute``).

``base`` defines ``Provider``, ``Prompt`` and ``ProviderCall``; ``extractive`` is the offline
default, ``anthropic`` the real API through the official SDK, ``fake`` a scripted provider for
tests, ``fabricate`` the switch that adds two fabricated sentences to a first draft, and
``registry.make_provider`` builds one by name.
"""
