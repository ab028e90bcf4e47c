"""Build of the optional compiled extensions; everything else is in ``pyproject.toml``."""

from pathlib import Path

from setuptools import Extension, setup

HERE = Path(__file__).parent


def compiled(name: str, **options: list[str]) -> list[Extension]:
    """The optional compiled twin ``name`` (a dotted module name) of some pure-Python code.

    Built from its ``.pyx`` with Cython when it is importable at build time, else from the
    generated ``.c`` an sdist ships (not when that is older than the ``.pyx``: it would be a twin
    of older code). A build that fails leaves the pure-Python code in charge
    (same results, slower).
    """
    source = HERE.joinpath(*name.split("."))
    extension = Extension(
        name, [str(source.with_suffix(".pyx").relative_to(HERE))], optional=True, **options
    )
    try:
        from Cython.Build import cythonize
    except ImportError:
        generated = source.with_suffix(".c")
        if not generated.exists():
            return []
        pyx = source.with_suffix(".pyx")
        if pyx.exists() and generated.stat().st_mtime < pyx.stat().st_mtime:
            # A .c older than its .pyx would build a twin of older code than the reference.
            print(
                f"scrapy-boilerplate: not building {name} ({generated.name} is older than its"
                " .pyx and Cython is not installed)"
            )
            return []
        extension.sources = [str(generated.relative_to(HERE))]
        return [extension]
    try:
        extensions = cythonize([extension], language_level=3, quiet=True)
    except Exception as exc:  # any Cython failure means "no speedups"
        print(f"scrapy-boilerplate: not building {name} ({exc})")
        return []
    for built in extensions:
        built.optional = True
    return extensions


def on_lxml(name: str) -> list[Extension]:
    """A compiled twin that reads lxml's trees, built against lxml's headers."""
    try:
        import lxml
    except ImportError:
        return []
    return compiled(name, include_dirs=lxml.get_include())


setup(
    ext_modules=[
        *on_lxml("scrapy_boilerplate.page._speedups"),
        *on_lxml("scrapy_boilerplate.features._nodes"),
        *compiled("scrapy_boilerplate.classifiers._gbdt"),
        *compiled("scrapy_boilerplate.classifiers._features"),
        *compiled("scrapy_boilerplate.classifiers._rules"),
        *compiled("scrapy_boilerplate.filters._isotonic"),
        *on_lxml("scrapy_boilerplate.filters._tree"),
        *compiled("scrapy_boilerplate.filters._lines"),
        *compiled("scrapy_boilerplate.classifiers._crf"),
        *compiled("scrapy_boilerplate.classifiers._template"),
        *on_lxml("scrapy_boilerplate.site._hashing"),
    ]
)
