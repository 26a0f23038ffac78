"""Build the compiled engine core; everything else is declared in pyproject.toml."""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "engine._core",
            sources=["engine/core/_core.c"],
            extra_compile_args=["-O3", "-std=c11", "-Wall", "-Wextra"],
        )
    ]
)
