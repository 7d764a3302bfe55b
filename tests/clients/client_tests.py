"""What the Python client test scripts share: running their test functions."""
import traceback


def run_tests(name, tests) -> int:
    """Runs each test function; prints FAIL and the traceback of each that raises, then
    "NAME: N passed, M failed". Returns the exit status: 1 if any failed."""
    failed = 0
    for test in tests:
        try:
            test()
        except Exception:
            failed += 1
            print(f"FAIL {test.__name__}")
            traceback.print_exc()
    print(f"{name}: {len(tests) - failed} passed, {failed} failed")
    return 1 if failed else 0
