//! Existing-project workspaces: a folder that already holds code before the
//! run, as a user's project does.

use super::Test;

/// `calc.py` with a working `add` and an `average` off by one, and the
/// pytest tests that show the bug.
pub const CALC: &str =
    "def add(a, b):\n    return a + b\n\n\ndef average(xs):\n    return sum(xs) / (len(xs) - 1)\n";
pub const TEST_CALC: &str = "from calc import add, average\n\n\ndef test_add():\n    assert add(2, 3) == 5\n\n\ndef test_average():\n    assert average([1, 2, 3]) == 2\n";
/// A finished hello world script.
pub const HELLO: &str = "print(\"Hello, World!\")\n";

impl Test {
    /// A workspace that already holds `files` (path, content).
    pub fn project(self, files: &[(&str, &str)]) -> Test {
        files
            .iter()
            .fold(self, |test, (path, content)| test.file(path, content))
    }

    /// The calc project: `calc.py` (a bug in `average`) and `test_calc.py`.
    pub fn calc_project(self) -> Test {
        self.project(&[("calc.py", CALC), ("test_calc.py", TEST_CALC)])
    }
}
