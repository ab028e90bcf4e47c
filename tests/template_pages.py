"""A small news page for the templateness tests: a menu, a story, a footer of links."""

from __future__ import annotations

STORY = " ".join(
    ["The council agreed on the new budget for the river bridge after a long debate."] * 4
)
PAGE = f"""<html><head><title>Council agrees budget | Town News</title></head><body>
<nav class="menu"><ul><li><a href="/">Home</a></li><li><a href="/news">News</a></li>
<li><a href="/sport">Sport and leisure</a></li>
<li><a href="/about">About us today</a></li></ul></nav>
<article><h1>Council agrees budget</h1><p>{STORY}</p><p>{STORY}</p></article>
<footer id="footer"><a href="/privacy">Privacy policy</a> <a href="/terms">Terms of use</a>
<a href="/cookies">Cookie settings</a> <a href="/contact">Contact the newsroom</a>
<a href="/ads">Advertise with us</a> <a href="/jobs">Careers at Town News</a></footer>
</body></html>"""
