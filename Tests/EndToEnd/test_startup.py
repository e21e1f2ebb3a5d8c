"""How the app starts: with the cairo renderer forced (as the harness runs it), the GL stack,
which nothing would draw with, is never loaded."""
from harness import TestFailure

GL_STACK = ("libEGL_mesa", "libGLX_mesa", "swrast_dri", "libLLVM", "libgbm")


def test_the_cairo_renderer_starts_without_the_gl_stack(app):
    if app.env.get("GSK_RENDERER", "").lower() != "cairo":
        raise TestFailure("the harness is meant to run the app with GSK_RENDERER=cairo")
    app.find("list item", "Invoices")
    with open(f"/proc/{app.process.pid}/maps") as maps:
        loaded = {line.split()[-1].rsplit("/", 1)[-1] for line in maps if "/" in line}
    gl = sorted(name for name in loaded if name.startswith(GL_STACK))
    if gl:
        raise TestFailure(f"the app loaded the GL stack it does not draw with: {gl}")
