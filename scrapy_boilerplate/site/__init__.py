"""Per-site knowledge: what the pages of one site share (templates), learnt across a crawl.

Empty for now. Site-level state reaches the extractors through
:class:`~scrapy_boilerplate.model.context.ExtractionContext`; this stage sits beside the
classifiers and imports only the model, page, features and filters stages.
"""
