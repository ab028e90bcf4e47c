"""Batch extraction outside a crawl: the pages of WARC archives to JSON lines.

:mod:`.warc` reads the HTML responses of a WARC file (warcio, the ``[warc]`` extra), streaming;
:mod:`.ordered` maps a function over a stream in worker processes, in input order, with a
bounded number of items in flight; :mod:`.run` ties them to an extractor and writes the output;
:mod:`.summary` counts what happened. :mod:`.spark` runs the same on Apache Spark (the
``[spark]`` extra): :mod:`.rows` turns a WARC file into its table rows, :mod:`.minhash` signs
texts for the near-duplicate search. Imports the extractors and the page stage, never Scrapy.
"""
