"""The tools' tests. tools/learn and tools/eval-home are imported by module name
(pyproject.toml's pythonpath); a script whose name has a hyphen (scripts/readme-check.py)
through `script`."""
import importlib.util
import os

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))


def script(name):
    """scripts/NAME.py as a module (it is run as a program, its name has hyphens)."""
    spec = importlib.util.spec_from_file_location(name.replace("-", "_"), os.path.join(ROOT, "scripts", name + ".py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as fh:
        fh.write(text)
    return path
