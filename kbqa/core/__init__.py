"""The answering core: pure Python, no Django or Channels imports (enforced by import-linter).

Modules: ``types`` (values and events), ``tokenize`` (word terms for BM25 and verification),
``tokens`` (tiktoken counts), ``lang`` (question language), ``sentences`` (sentence cutting),
``citations`` (marker parsing and the two verification gates), ``assemble`` (context
assembly), ``conflicts`` (quantities that disagree), ``refusal`` (the three refusal lines),
``prompt``, ``compress``, ``providers``, ``pipeline``.
"""
