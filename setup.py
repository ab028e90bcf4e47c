"""Packaging for scrapy-boilerplate."""

from pathlib import Path

from setuptools import Extension, find_packages, setup

HERE = Path(__file__).parent


def speedups() -> list[Extension]:
    """The optional compiled twin of the hot loops (``scrapy_boilerplate/_speedups.pyx``).

    Built against lxml's headers: from the ``.pyx`` with Cython when it is importable at build
    time, else from the generated ``.c`` an sdist ships. A build that fails leaves the
    pure-Python code in charge (same results, slower).
    """
    try:
        import lxml
    except ImportError:
        return []
    source = HERE / "scrapy_boilerplate" / "_speedups"
    extension = Extension(
        "scrapy_boilerplate._speedups",
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


PEERS = [
    "trafilatura",
    "boilerpy3",
    "justext",
    "readability-lxml",
    "lxml_html_clean",
    "newspaper4k",
    "goose3",
    "resiliparse",
    "html-text",
]

setup(
    name="scrapy-boilerplate",
    version="0.1.0",
    description="Clean article text for every Scrapy crawl: boilerplate detection with shallow text features",
    long_description=(HERE / "README.md").read_text(encoding="utf-8"),
    long_description_content_type="text/markdown",
    license="BSD-3-Clause",
    python_requires=">=3.10",
    packages=find_packages(include=["scrapy_boilerplate", "scrapy_boilerplate.*"]),
    ext_modules=speedups(),
    package_data={"scrapy_boilerplate": ["py.typed", "*.pyi", "samples/*.html", "models/*.json"]},
    install_requires=[
        "scrapy>=2.13",
        "parsel>=1.8",
        "lxml>=5.0",
        "w3lib>=2.1",
        "itemadapter>=0.8",
        "tqdm>=4.60",
    ],
    extras_require={
        "train": ["scikit-learn>=1.3", "numpy>=1.24"],
        "eval": ["scikit-learn>=1.3", "numpy>=1.24", "scipy>=1.10", "matplotlib>=3.7"],
        "peers": PEERS,
        "postgres": ["psycopg[binary]>=3.1"],
        "test": [
            "pytest>=7",
            "pytest-twisted>=1.14",
            "pytest-timeout>=2.1",
            "scikit-learn>=1.3",
            "numpy>=1.24",
            "psycopg[binary]>=3.1",
        ],
        "dev": ["ruff", "mypy", "tox", "lxml-stubs", "types-tqdm"],
    },
    entry_points={
        "console_scripts": ["scrapy-boilerplate=scrapy_boilerplate.cli:main"],
        "scrapy.commands": ["boilerplate=scrapy_boilerplate.integration.commands:BoilerplateCommand"],
    },
    classifiers=[
        "Framework :: Scrapy",
        "Programming Language :: Python :: 3",
        "Topic :: Text Processing :: Markup :: HTML",
        "Typing :: Typed",
    ],
)
