"""newsroom: an example Scrapy project that crawls news sites into a database of clean articles."""
