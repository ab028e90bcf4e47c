"""Project commands: ``scrapy replay_spool``."""
