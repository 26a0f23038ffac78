"""Build the compiled engine core; everything else is declared in pyproject.toml."""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "engine._core",
            sources=["engine/core/_core.c"],
            # _core.c includes these, so they are dependencies rather than sources.
            depends=[
                "engine/core/bingo.c",
                "engine/core/gaddag.h",
                "engine/core/gaddag_build.c",
                "engine/core/movegen.c",
                "engine/core/movegen_walk.h",
            ],
            extra_compile_args=["-O3", "-std=c11", "-Wall", "-Wextra"],
        )
    ]
)
