"""Build of the optional compiled extension; everything else is in ``pyproject.toml``."""

from pathlib import Path

from setuptools import Extension, setup

HERE = Path(__file__).parent


def speedups() -> list[Extension]:
    """The optional compiled twin of the hot loops (``scrapy_boilerplate/page/_speedups.pyx``).

    Built against lxml's headers: from the ``.pyx`` with Cython when it is importable at build
    time, else from the generated ``.c`` an sdist ships. A build that fails leaves the
    pure-Python code in charge (same results, slower).
    """
    try:
        import lxml
    except ImportError:
        return []
    source = HERE / "scrapy_boilerplate" / "page" / "_speedups"
    extension = Extension(
        "scrapy_boilerplate.page._speedups",
        [str(source.with_suffix(".pyx").relative_to(HERE))],
        include_dirs=lxml.get_include(),
        optional=True,
    )
    try:
        from Cython.Build import cythonize
    except ImportError:
        if not source.with_suffix(".c").exists():
            return []
        extension.sources = [str(source.with_suffix(".c").relative_to(HERE))]
        return [extension]
    try:
        extensions = cythonize([extension], language_level=3, quiet=True)
    except Exception as exc:  # any Cython failure means "no speedups"
        print(f"scrapy-boilerplate: not building the speedups ({exc})")
        return []
    for built in extensions:
        built.optional = True
    return extensions


setup(ext_modules=speedups())
