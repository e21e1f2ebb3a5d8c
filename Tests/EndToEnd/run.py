#!/usr/bin/python3
"""Runs every end-to-end test (test_*.py beside this file) against the real binary.

Needs a display and a session bus: build-aux/dev test runs it under xvfb-run and dbus-run-session.
"""
import argparse
import importlib.util
import os
import sys
import traceback

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", required=True)
    parser.add_argument("--only", help="run only tests whose name contains this")
    args = parser.parse_args()
    if not os.environ.get("DISPLAY"):
        print("end-to-end: skipped, no display (run through build-aux/dev test)")
        return 0

    import harness
    passed, failed = 0, 0
    for filename in sorted(os.listdir(HERE)):
        if not (filename.startswith("test_") and filename.endswith(".py")):
            continue
        spec = importlib.util.spec_from_file_location(filename[:-3], os.path.join(HERE, filename))
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        for name in sorted(dir(module)):
            if not name.startswith("test_") or (args.only and args.only not in name):
                continue
            app = None
            try:
                app = harness.App(args.binary, **getattr(module, "APP_OPTIONS", {}).get(name, {}))
                getattr(module, name)(app)
                passed += 1
                print(f"✔ {filename}::{name}")
            except Exception:
                failed += 1
                print(f"✘ {filename}::{name}")
                traceback.print_exc()
                if app:
                    app.report_exit()
            finally:
                if app:
                    app.close()
    print(f"e2e: {passed} passed, {failed} failed")
    return 1 if failed or not passed else 0


if __name__ == "__main__":
    sys.exit(main())
