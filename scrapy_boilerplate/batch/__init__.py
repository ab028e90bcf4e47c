"""Batch extraction outside a crawl: the pages of WARC archives to JSON lines.

:mod:`.warc` reads the HTML responses of a WARC file (warcio, the ``[warc]`` extra), streaming;
:mod:`.ordered` maps a function over a stream in worker processes, in input order, with a
bounded number of items in flight; :mod:`.run` ties them to an extractor and writes the output;
:mod:`.summary` counts what happened. Imports the extractors and the page stage, never Scrapy.
"""
