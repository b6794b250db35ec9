"""Evaluation and threshold calibration, pure Python (README: Evaluation, Calibration).

``cases`` (the JSON Lines case format and answer matching), ``rgb`` (RGB benchmark records
to cases), ``metrics`` (per-case results and summary metrics), ``calibration`` (retrieval
signals and the low-score threshold), ``report`` (tables and the Markdown report). The Django
side that runs cases through the pipeline is ``chat.evaluation``.
"""
