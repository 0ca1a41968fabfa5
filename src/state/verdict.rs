//! What the completion check found: the checks run on the files as they
//! are, and the goal's requirements, each met or not with its evidence.
//! "Goal achieved" is decided here from these facts, never from a claim.

use crate::lang::Unexported;
use serde::{Deserialize, Serialize};

/// How many tests a check ran, as its test runner reported them.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tally {
    pub passed: u32,
    pub failed: u32,
}

/// One run of a check command at the end of a cycle.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CheckRun {
    pub command: String,
    /// `None` when it was killed or never started.
    pub exit_code: Option<i32>,
    /// Its output's head and tail, as the model is shown it.
    pub output: String,
    /// The tests it ran, when its output says.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tests: Option<Tally>,
    /// It ran a program with no arguments, by a command the plan made (the
    /// goal does not give it), and the program stopped where it reads the
    /// arguments or input it is run with (see
    /// [`crate::lang::Language::wants_arguments`]): it says nothing against
    /// the work, and [`hold_to_run`] asks that something else ran its code.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub wants_arguments: bool,
}

impl CheckRun {
    pub fn passed(&self) -> bool {
        self.exit_code == Some(0)
    }

    /// It failed, and that counts against the work: not a run that only
    /// wanted the arguments its command does not give.
    pub fn failed(&self) -> bool {
        !self.passed() && !self.wants_arguments
    }

    /// Tests ran, at least one, and none failed.
    pub fn tests_passed(&self) -> bool {
        self.passed() && self.tests.is_some_and(|t| t.passed > 0 && t.failed == 0)
    }
}

/// One requirement of the goal, as the assessment found it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Requirement {
    pub requirement: String,
    pub met: bool,
    pub evidence: String,
    /// It asks for tests: met only by tests that ran and passed.
    #[serde(default)]
    pub about_tests: bool,
    /// It is about what a program prints or does when it runs: met only
    /// when the command the assessment gave printed what it said it would.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub about_output: bool,
    /// The command that shows it, and the text its output must hold.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shown_by: Option<ShownBy>,
    /// The file to change to meet it, when the runner knows (a package's
    /// `__init__.py` that must import a name): a cycle changes that file.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub file: Option<String>,
}

/// How a requirement about output is shown: a command, and text that its
/// output holds when the requirement is met (said before it runs).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ShownBy {
    pub command: String,
    pub expects: String,
}

/// A command run to show a requirement: how it ended and what it printed
/// (its output only, without the command line or the exit status).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Shown {
    pub command: String,
    pub exit_code: Option<i32>,
    pub printed: String,
    /// Why it was not run (a program that is not allowed), when it was not.
    pub not_run: Option<String>,
    /// The arguments it failed with that look like files and name none of
    /// the workspace (`test.txt` for a word count): why it failed may be
    /// that, not the program.
    pub absent: Vec<String>,
}

impl Shown {
    /// `` `CMD` failed (exit code N)``, and the files it names that are
    /// not there.
    fn failed(&self, code: i32) -> String {
        format!(
            "`{}` failed (exit code {code}){}",
            self.command,
            absent_note(&self.absent)
        )
    }
}

impl Requirement {
    /// The command to run to judge it: a requirement about output that the
    /// model says is met, with a command.
    pub fn to_show(&self) -> Option<&str> {
        self.to_run().filter(|_| self.is_about_output())
    }

    /// The command the assessment gave as what shows a requirement it
    /// says is met, whether about output or not: run, it must at least
    /// succeed (see [`hold_to_output`]).
    pub fn to_run(&self) -> Option<&str> {
        let command = self.shown_by.as_ref()?.command.trim();
        (self.met && !command.is_empty()).then_some(command)
    }

    /// [`Requirement::to_run`] of a requirement not about output, when
    /// the command passes arguments: a claim about how the program takes
    /// them. A bare run (`python3 rps.py`) of a program that waits for
    /// input fails without it (commands get none), which shows nothing of
    /// what it does; the plan's checks are such runs, and judge them.
    pub fn to_try(&self) -> Option<&str> {
        self.to_run()
            .filter(|command| !self.is_about_output() && command.split_whitespace().count() >= 3)
    }

    /// The command and the output that show an unmet requirement about
    /// output, as the assessment gave them, when the command passes every
    /// option the requirement names: what its cycle runs until the output
    /// holds it.
    pub fn to_redo(&self) -> Option<(&str, &str)> {
        let shown_by = self.shown_by.as_ref()?;
        let (command, expects) = (shown_by.command.trim(), shown_by.expects.trim());
        let passed: Vec<&str> = command.split_whitespace().collect();
        let passes_options = options(&self.requirement).all(|o| passed.contains(&o));
        (!self.met
            && self.is_about_output()
            && !command.is_empty()
            && !expects.is_empty()
            && passes_options)
            .then_some((command, expects))
    }

    /// The command-line options its words name (`--shout`).
    pub fn options(&self) -> Vec<&str> {
        options(&self.requirement).collect()
    }

    /// About output: so the model says, or it names a command-line option,
    /// which only running the program shows (a cli-flag run was judged
    /// from the code when the model called `--shout` a function's). The
    /// options of a requirement about tests are those of the test run
    /// (`python3 -m pytest -q` passes): an add-tests run spent a cycle
    /// showing pytest's output as the program's.
    pub fn is_about_output(&self) -> bool {
        self.about_output || !self.about_tests && options(&self.requirement).next().is_some()
    }

    /// The command to run beside [`Requirement::to_show`] when the
    /// requirement names options: the same without them. An option whose
    /// output is the same without it changes nothing.
    pub fn to_show_without(&self) -> Option<String> {
        let command = self.to_show()?;
        let named: Vec<&str> = options(&self.requirement).collect();
        let kept: Vec<&str> = command
            .split_whitespace()
            .filter(|word| !named.contains(word))
            .collect();
        (kept.len() < command.split_whitespace().count()).then(|| kept.join(" "))
    }
}

/// Whether the goal is achieved, from the last checks and requirements.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    Achieved,
    /// What is missing, one line each.
    Missing(Vec<String>),
}

/// The verdict: every check passed and every requirement is met (and there
/// is at least one requirement: an assessment that found none proves
/// nothing). With no check to run, the subtasks of this cycle that failed
/// (`failed`) are missing too: nothing else tests the model's word.
pub fn verdict(checks: &[CheckRun], requirements: &[Requirement], failed: &[String]) -> Verdict {
    let mut missing: Vec<String> = checks
        .iter()
        .filter(|check| check.failed())
        .map(|check| match check.exit_code {
            Some(code) => format!("`{}` failed (exit code {code})", check.command),
            None => format!("`{}` did not finish", check.command),
        })
        .collect();
    if checks.is_empty() {
        missing.extend(
            failed
                .iter()
                .map(|subtask| format!("{subtask} (it failed)")),
        );
    }
    if requirements.is_empty() {
        missing.push("no requirement of the goal could be assessed".into());
    }
    missing.extend(
        requirements
            .iter()
            .filter(|r| !r.met)
            .map(|r| format!("{} ({})", r.requirement, r.evidence)),
    );
    match missing.is_empty() {
        true => Verdict::Achieved,
        false => Verdict::Missing(missing),
    }
}

/// In a goal that does not speak of tests (see [`speaks_of_tests`]), no
/// requirement is about tests by the model's word alone: the user asked
/// for none, so what the model marked so is about the code, judged as the
/// others are (its examples, what calls it, the checks). A run that showed
/// it by a run of tests is still held to them ([`shown_by_tests`], after
/// this). l5's and m1's add-function assessors marked "Add a function
/// count_vowels(text) ..." about tests; held to tests the goal never asked
/// for, a right function's runs spent their rounds on a cycle that wrote
/// them, and the model's own tests expected wrong counts.
pub fn not_about_tests(speaks: bool, mut requirements: Vec<Requirement>) -> Vec<Requirement> {
    if !speaks {
        for requirement in &mut requirements {
            requirement.about_tests = false;
        }
    }
    requirements
}

/// A requirement the assessment shows by a run of tests (`runs_tests`, by
/// a language) is about tests, not output: a test run prints no value the
/// code returns, and it is met when the last checks ran tests and they
/// passed (see [`hold_to_tests`]). A calc-fix assessment showed "average
/// returns the average" by `python3 -m pytest -q` expecting "2.0"; the
/// three tests passed, the text was not there, and the run spent its
/// rounds on a cycle that could never end.
pub fn shown_by_tests(
    mut requirements: Vec<Requirement>,
    runs_tests: impl Fn(&str) -> bool,
) -> Vec<Requirement> {
    for requirement in &mut requirements {
        let Some(shown_by) = &requirement.shown_by else {
            continue;
        };
        if runs_tests(&shown_by.command) {
            held_to_tests(requirement);
        }
    }
    requirements
}

/// A requirement that the assessment shows by running a library of the
/// project (`library`: a file that was there before the run and whose top
/// level only defines, by its language), for a goal that does not ask what
/// a program prints (`speaks`, see [`speaks_of_output`]) and with no option
/// named, is about what the code does: such a run prints nothing whatever
/// the code returns. Like one shown by a test run, it is held to the tests.
/// About output, held to a text, its cycle asked the model to make the
/// library print: a calc-fix assessment showed "add returns the sum" by
/// `python3 calc.py 3 4` expecting "7" with the tests passing, and the
/// model put `print('7')` after a `return`. Not about output, it was met
/// by the model's reading: an add-function run (`--api openai`, 619226c)
/// wrote `count_vowels` as a copy of `reverse`, the assessment called it
/// met, shown by `python3 textutil.py`, and the run ended "Goal achieved".
pub fn shown_by_library(
    mut requirements: Vec<Requirement>,
    speaks: bool,
    library: impl Fn(&str) -> bool,
) -> Vec<Requirement> {
    if speaks {
        return requirements;
    }
    for requirement in &mut requirements {
        let Some(shown_by) = &requirement.shown_by else {
            continue;
        };
        let named = options(&requirement.requirement).next().is_some();
        if !named && shown_by.command.split_whitespace().any(&library) {
            held_to_tests(requirement);
        }
    }
    requirements
}

/// About tests, not output, with no command to show it.
fn held_to_tests(requirement: &mut Requirement) {
    requirement.about_tests = true;
    requirement.about_output = false;
    requirement.shown_by = None;
}

/// A requirement about tests is met only when a check ran tests and they
/// passed: the model's word is not enough.
pub fn hold_to_tests(mut requirements: Vec<Requirement>, checks: &[CheckRun]) -> Vec<Requirement> {
    let tested = checks.iter().any(CheckRun::tests_passed);
    for requirement in &mut requirements {
        if requirement.about_tests && requirement.met && !tested {
            requirement.met = false;
            requirement.evidence = match checks.is_empty() {
                true => NO_TEST_RAN.into(),
                false => NO_TEST_PASSED.into(),
            };
        }
    }
    requirements
}

/// Each unmet requirement that they pass (a word `pass...`) that names
/// tests the workspace defines (`tests`: each test file's path and the
/// tests it defines), and names only such tests, held met when a check
/// ran those tests and every test it ran passed: that they pass is then
/// what the check shows, whatever the model read. t60's calc-fix assessor called "The test `test_add()`
/// should pass." unmet beside `3 passed`, on the evidence that `python3
/// calc.py` printed nothing, and the cycle that followed made calc.py
/// print that sentence. A check that names test files (`is_test`) or
/// folders ran only those.
pub fn met_by_named_tests(
    mut requirements: Vec<Requirement>,
    checks: &[CheckRun],
    tests: &[(String, Vec<String>)],
    is_test: impl Fn(&str) -> bool,
) -> Vec<Requirement> {
    for requirement in requirements.iter_mut().filter(|r| !r.met) {
        let lower = requirement.requirement.to_lowercase();
        if !tokens(&lower).any(|word| word.starts_with("pass")) {
            continue;
        }
        let named: Vec<&str> = tokens(&requirement.requirement)
            .filter(|word| word.starts_with("test_") || word.starts_with("Test"))
            .collect();
        let files: Option<Vec<&String>> = named
            .iter()
            .map(|name| {
                tests
                    .iter()
                    .find(|(_, defined)| defined.iter().any(|d| d == name))
                    .map(|(path, _)| path)
            })
            .collect();
        let Some(files) = files.filter(|files| !files.is_empty()) else {
            continue;
        };
        let ran = checks.iter().find(|check| {
            let chosen: Vec<&str> = check
                .command
                .split_whitespace()
                .filter(|word| is_test(word) || word.ends_with('/'))
                .collect();
            check.tests_passed()
                && (chosen.is_empty()
                    || files.iter().all(|file| {
                        chosen
                            .iter()
                            .any(|word| file.as_str() == *word || file.starts_with(word))
                    }))
        });
        let Some(check) = ran else {
            continue;
        };
        let counted = counted(check);
        requirement.met = true;
        requirement.evidence = format!(
            "`{}` ran {} and every test passed{counted}",
            check.command,
            named
                .iter()
                .map(|n| format!("`{n}`"))
                .collect::<Vec<_>>()
                .join(", ")
        );
        held_to_tests(requirement);
    }
    requirements
}

/// Each unmet requirement about tests that is words of the `goal` saying
/// they fail (`fail`, `fails`, `failed` or `failing`; no `pass...`), held
/// met when a check that failed before the run (`failed_before`) ran
/// tests now and they all passed: what the goal says of the project as it
/// was ("The tests in test_calc.py fail.") is no requirement of it, and
/// the tests it spoke of pass. t60's calc-fix assessor listed that
/// sentence of the goal as unmet in two runs whose fix was right, and both
/// ended "not achieved".
pub fn failure_described(
    goal: &str,
    mut requirements: Vec<Requirement>,
    checks: &[CheckRun],
    failed_before: &[CheckRun],
) -> Vec<Requirement> {
    let passing = checks.iter().find(|check| {
        check.tests_passed()
            && failed_before
                .iter()
                .any(|then| !then.passed() && words(&then.command) == words(&check.command))
    });
    let Some(check) = passing else {
        return requirements;
    };
    for requirement in requirements.iter_mut().filter(|r| !r.met && r.about_tests) {
        let lower = requirement.requirement.to_lowercase();
        let fails =
            tokens(&lower).any(|word| ["fail", "fails", "failed", "failing"].contains(&word));
        let passes = tokens(&lower).any(|word| word.starts_with("pass"));
        if !fails || passes || !spoken(goal).contains(&spoken(&requirement.requirement)) {
            continue;
        }
        let counted = counted(check);
        requirement.met = true;
        requirement.evidence = format!(
            "what the goal says of the project before the run: `{}` failed then, and its tests \
             pass now{counted}",
            check.command
        );
        held_to_tests(requirement);
    }
    requirements
}

/// Why an assessment's answer cannot be used as it is: a requirement it
/// calls met on evidence that quotes a line of code (a line of its own
/// after the first, with code's punctuation) that no file and no check
/// holds (`holds`, white space and quotes aside). t65's welcome-many
/// assessor gave "The welcome.py file now contains the following lines:"
/// and `for name in argv[1:]:` under them, a line welcome.py never had,
/// and called the goal met.
pub fn invented_evidence(
    requirements: &[Requirement],
    holds: impl Fn(&str) -> bool,
) -> Option<String> {
    requirements.iter().filter(|r| r.met).find_map(|r| {
        let invented = r.evidence.lines().skip(1).map(str::trim).find(|line| {
            line.chars().count() >= 8
                && line.contains(['(', '=', '[', ':'])
                && !line.ends_with("...")
                && !holds(line)
        })?;
        Some(format!(
            "the evidence of \"{}\" quotes `{invented}`, which no file and no check holds. \
             Quote lines as they are in the FILES and CHECKS now",
            r.requirement.trim()
        ))
    })
}

/// `text` as [`invented_evidence`] compares lines: white space left out,
/// double quotes as single ones.
pub fn quoted_form(text: &str) -> String {
    text.chars()
        .filter(|c| !c.is_whitespace())
        .map(|c| if c == '"' { '\'' } else { c })
        .collect()
}

/// Why an assessment's answer cannot be used as it is: a requirement it
/// calls unmet on evidence that copies the question's own words
/// (`instructions`, six words in a row or more), not a line of the files
/// or the checks. t60's calc-fix assessor gave "Before the run the
/// project's tests failed: what the GOAL says was wrong then ..." and
/// "The project's tests run with: `python3 -m pytest -q`" as the evidence
/// that a fix whose tests passed was not done.
pub fn copied_evidence(requirements: &[Requirement], instructions: &[&str]) -> Option<String> {
    const RUN: usize = 6;
    let plain = |text: &str| -> Vec<String> {
        text.split_whitespace()
            .map(|w| {
                w.trim_matches(|c: char| !c.is_alphanumeric())
                    .to_lowercase()
            })
            .filter(|w| !w.is_empty())
            .collect()
    };
    let taught: Vec<Vec<String>> = instructions.iter().map(|text| plain(text)).collect();
    requirements.iter().filter(|r| !r.met).find_map(|r| {
        let evidence = plain(&r.evidence);
        let copied = evidence.windows(RUN).any(|run| {
            taught
                .iter()
                .any(|words| words.windows(RUN).any(|taught| taught == run))
        });
        copied.then(|| {
            format!(
                "the evidence of \"{}\" (\"{}\") copies the question's own words, which show \
                 nothing. Quote a line of the FILES or the CHECKS as they are now",
                r.requirement.trim(),
                r.evidence.trim()
            )
        })
    })
}

/// How many tests `check` passed, as evidence says it: ` (3 passed)`; empty
/// when it counted none.
fn counted(check: &CheckRun) -> String {
    check
        .tests
        .map(|t| format!(" ({} passed)", t.passed))
        .unwrap_or_default()
}

/// The evidence of a requirement [`hold_to_tests`] made unmet: the model
/// called it met, and no check ran tests.
const NO_TEST_RAN: &str = "no check ran any test";
/// ... and no test a check ran passed.
const NO_TEST_PASSED: &str = "the last check ran no test that passed";

/// Why an assessment's answer cannot be used as it is: a requirement it
/// calls unmet on evidence that is one of the runner's own words for a
/// check with no passing test ([`NO_TEST_PASSED`], [`NO_TEST_RAN`]), given
/// as the evidence of the last assessment, while a check now ran tests and
/// they passed. A small model copies the evidence listed for the last
/// assessment: v1's bank-tests assessor said "The last check ran no test
/// that passed" beside `3 passed`, and a cycle went to write the tests
/// again.
pub fn stale_evidence(requirements: &[Requirement], checks: &[CheckRun]) -> Option<String> {
    let passed = checks.iter().find(|check| check.tests_passed())?;
    let copied = requirements.iter().find(|r| {
        let evidence = r.evidence.trim().trim_end_matches('.').to_lowercase();
        !r.met && [NO_TEST_PASSED, NO_TEST_RAN].contains(&evidence.as_str())
    })?;
    let tests = counted(passed);
    Some(format!(
        "its evidence \"{}\" is not true now: `{}` ran tests and they passed{tests}. Judge each \
         requirement on the FILES and CHECKS as they are now",
        copied.evidence.trim(),
        passed.command
    ))
}

/// Why an assessment's answer cannot be used as it is: a requirement it
/// calls unmet on evidence that quotes an output (a span in backquotes
/// after it) of a check that ran and printed nothing. The record says what
/// the check printed: t57's add-oldest assessor gave "The output of
/// `python3 people.py` is `None`." for a check that exited 0 printing
/// nothing, three assessments in a row, and a right `oldest` ended "not
/// achieved".
pub fn misquoted_evidence(requirements: &[Requirement], checks: &[CheckRun]) -> Option<String> {
    let words = |text: &str| text.split_whitespace().collect::<Vec<_>>().join(" ");
    requirements.iter().filter(|r| !r.met).find_map(|r| {
        let spans: Vec<&str> = r.evidence.split('`').skip(1).step_by(2).collect();
        spans.iter().enumerate().find_map(|(at, span)| {
            let check = checks.iter().find(|c| words(&c.command) == words(span))?;
            let quoted = spans.get(at + 1).filter(|next| !next.trim().is_empty())?;
            let silent = crate::tools::printed(&check.output).trim().is_empty();
            let code = check
                .exit_code
                .map_or("it did not finish".to_string(), |code| {
                    format!("exit code {code}")
                });
            silent.then(|| {
                format!(
                    "its evidence \"{}\" quotes `{quoted}` as what `{}` gives, but that check \
                     printed nothing ({code}). Judge each requirement on the FILES and CHECKS as \
                     they are now",
                    r.evidence.trim(),
                    check.command
                )
            })
        })
    })
}

/// A requirement the model called met, held to tests the goal does not
/// ask for (`speaks` false: a library's function, see
/// [`shown_by_library`]) and unmet for want of them (see
/// [`hold_to_tests`]), is met when a function it names was called on the
/// goal's examples and returned what each says ([`Examined::held`]): the
/// code ran and did what the goal says. p1's add-function (`--api
/// openai`) had a right `count_vowels`, right on its four examples, and
/// spent a cycle writing tests nobody asked for. A function with no
/// examples, or one wrong on any, is still held to tests.
pub fn shown_by_examples(
    speaks: bool,
    mut requirements: Vec<Requirement>,
    examined: &[Examined],
) -> Vec<Requirement> {
    if speaks {
        return requirements;
    }
    for requirement in &mut requirements {
        let for_want_of_tests =
            [NO_TEST_RAN, NO_TEST_PASSED].contains(&requirement.evidence.as_str());
        if requirement.met || !requirement.about_tests || !for_want_of_tests {
            continue;
        }
        let Some(examined) = examined
            .iter()
            .find(|e| e.held() && crate::text::has_word(&requirement.requirement, &e.name))
        else {
            continue;
        };
        let returned: Vec<String> = examined
            .tried
            .iter()
            .take(3)
            .map(|t| format!("{} returned {}", t.call, t.wanted))
            .collect();
        requirement.met = true;
        requirement.about_tests = false;
        requirement.evidence = cut(
            &format!("called on the goal's examples: {}", returned.join(", ")),
            300,
        );
    }
    requirements
}

/// A requirement about output is met only when its command ran, exited
/// with code 0, passed every option the requirement names, and printed the
/// text the assessment said it would: the model's reading of the code is
/// not enough. `runs` are the commands run (see [`Requirement::to_show`]).
/// Any other requirement the assessment says is met and gives a command
/// with arguments for (see [`Requirement::to_try`]) is not met when that
/// command, run, failed: a word-count assessment called "it runs with a
/// file argument" met by `python3 word_count.py input.txt`, with no
/// input.txt there.
///
/// One whose command lacks only options the requirement names is shown by
/// another met requirement's run of the same command with them, when
/// there is one (see [`borrowed`]).
pub fn hold_to_output(mut requirements: Vec<Requirement>, runs: &[Shown]) -> Vec<Requirement> {
    let mut lacking = Vec::new();
    for (at, requirement) in requirements.iter_mut().enumerate() {
        if !requirement.met {
            continue;
        }
        if requirement.is_about_output() && lacks_options(requirement) {
            lacking.push(at);
        }
        let held = match requirement.is_about_output() {
            true => shown(requirement, runs),
            false => ran(requirement, runs),
        };
        if let Err(why) = held {
            requirement.met = false;
            requirement.evidence = why;
        }
    }
    for at in lacking {
        if let Some(evidence) = borrowed(&requirements[at], &requirements) {
            requirements[at].met = true;
            requirements[at].evidence = evidence;
        }
    }
    requirements
}

/// Whether the command of a requirement about output leaves out an option
/// its words name.
fn lacks_options(requirement: &Requirement) -> bool {
    let Some(command) = requirement.to_show() else {
        return false;
    };
    let passed: Vec<&str> = command.split_whitespace().collect();
    options(&requirement.requirement).any(|o| !passed.contains(&o))
}

/// For a requirement whose command leaves out options its words name: the
/// evidence of another requirement, met and about output, shown by the
/// same command with those options (nothing else added). k1's cli-flag
/// assessment gave "greet.py takes an optional --shout flag" the command
/// `python3 greet.py`; `python3 greet.py --shout` printed the held
/// `HELLO, WORLD!` for another of its requirements, and the first, unmet
/// for not passing `--shout`, made a cycle whose change could change
/// nothing.
fn borrowed(requirement: &Requirement, all: &[Requirement]) -> Option<String> {
    let own = requirement.shown_by.as_ref()?.command.trim();
    let named: Vec<&str> = options(&requirement.requirement).collect();
    all.iter().find_map(|other| {
        let command = other.to_show().filter(|_| other.met)?;
        let words: Vec<&str> = command.split_whitespace().collect();
        let passes = named.iter().all(|o| words.contains(o));
        let rest = words.iter().copied().filter(|w| !named.contains(w));
        (passes && rest.eq(own.split_whitespace()))
            .then(|| format!("shown by `{command}`: {}", other.evidence))
    })
}

/// Why a requirement's command shows nothing of an option its words name.
fn not_passing(command: &str, option: &str) -> String {
    format!("`{command}` does not pass {option}")
}

/// A requirement unmet only for a command that leaves out an option its
/// words name (see [`hold_to_output`]) is shown by a met requirement's run
/// of the same command with it that came after: the runs the goal's words
/// state (see [`hold_to_stated`]). w2's echo-reverse assessment gave its
/// "Extend echo.py with a --reverse option ..." the command `python3
/// echo.py one two three`, expecting `three two one`; the stated `python3
/// echo.py one two three --reverse` printed that, and a cycle that could
/// change nothing ran to the round cap.
pub fn shown_with_options(mut requirements: Vec<Requirement>) -> Vec<Requirement> {
    for at in 0..requirements.len() {
        let requirement = &requirements[at];
        let Some(shown_by) = &requirement.shown_by else {
            continue;
        };
        let command = shown_by.command.trim();
        let passed: Vec<&str> = command.split_whitespace().collect();
        let lacking = options(&requirement.requirement).find(|o| !passed.contains(o));
        let only_for_it =
            lacking.is_some_and(|option| requirement.evidence == not_passing(command, option));
        if requirement.met || !requirement.is_about_output() || !only_for_it {
            continue;
        }
        if let Some(evidence) = borrowed(requirement, &requirements) {
            requirements[at].met = true;
            requirements[at].evidence = evidence;
        }
    }
    requirements
}

/// A requirement the last assessment (`earlier`) held unmet, shown by a
/// command whose output did not hold the text it expected, keeps that text
/// while the same command's output now (`runs`) does not hold it either:
/// an assessment that lists it again, in the same words and shown by the
/// same command, and expects another text of it, read that text off the
/// output it was shown, not off the goal. t73's tip-percent held "`python
/// tip.py 40 20` prints 8.00" unmet when it printed 6.00; the next
/// assessment listed it again, expected `6.00` of the unchanged program,
/// and the run ended "Goal achieved".
pub fn held_as_before(
    mut requirements: Vec<Requirement>,
    earlier: &[Requirement],
    runs: &[Shown],
) -> Vec<Requirement> {
    for requirement in &mut requirements {
        let Some(command) = requirement.to_show().map(words) else {
            continue;
        };
        let Some(run) = runs
            .iter()
            .find(|run| words(&run.command) == command && run.exit_code == Some(0))
        else {
            continue;
        };
        let Some(expects) = requirement.shown_by.as_ref().map(|s| s.expects.trim()) else {
            continue;
        };
        let kept = earlier.iter().find_map(|before| {
            let shown_by = before.shown_by.as_ref().filter(|_| !before.met)?;
            let was = shown_by.expects.trim();
            (spoken(&before.requirement) == spoken(&requirement.requirement)
                && words(&shown_by.command) == command
                && !was.is_empty()
                && !describes(was)
                && spoken(was) != spoken(expects))
            .then_some(was)
        });
        let Some(kept) = kept else {
            continue;
        };
        if let Err(why) = holds(&run.printed, kept) {
            requirement.evidence = format!(
                "`{command}` {why}; the last assessment held this requirement to {kept:?}, and \
                 the program's output has not come to hold it"
            );
            requirement.met = false;
            if let Some(shown_by) = &mut requirement.shown_by {
                shown_by.expects = kept.to_string();
            }
        }
    }
    requirements
}

/// Why the command given for a requirement not about output failed when
/// it ran, if it did. One that was not run (beyond the runs' bound, or a
/// run of tests, which the checks judge) is not held against it.
fn ran(requirement: &Requirement, runs: &[Shown]) -> Result<(), String> {
    let Some(command) = requirement.to_try() else {
        return Ok(());
    };
    let Some(run) = runs.iter().find(|run| run.command == command) else {
        return Ok(());
    };
    if let Some(why) = &run.not_run {
        return Err(format!("`{command}` was not run: {why}"));
    }
    match run.exit_code {
        Some(0) => Ok(()),
        Some(code) => Err(run.failed(code)),
        None => Err(format!("`{command}` did not finish")),
    }
}

/// Every command-line option the goal names is named by a requirement:
/// one the assessment left out (a cli-flag run listed "the greeting
/// function returns HELLO when its shout argument is true", met from the
/// code, and no requirement named `--shout`) is added, unmet, so the next
/// cycle works on it and the next assessment must show it by running the
/// program with it (see [`Requirement::is_about_output`]).
pub fn hold_to_goal(goal: &str, mut requirements: Vec<Requirement>) -> Vec<Requirement> {
    let mut named: Vec<&str> = Vec::new();
    for option in options(goal) {
        if named.contains(&option) {
            continue;
        }
        named.push(option);
        // Only by one about output: a requirement about tests that names
        // it is shown by tests, not by a run of the program with it.
        let covered = requirements
            .iter()
            .any(|r| r.is_about_output() && options(&r.requirement).any(|o| o == option));
        if !covered {
            requirements.push(Requirement {
                requirement: format!("the program takes {option} and it works as the goal says"),
                met: false,
                evidence: format!(
                    "no requirement names {option}, so no run of the program showed it work"
                ),
                about_tests: false,
                about_output: true,
                shown_by: None,
                file: None,
            });
        }
    }
    requirements
}

/// Every name the goal gives in call form (`count_vowels(text)`) is
/// defined by a source file of the workspace (`defined`, by the file's
/// language): one that is not is an unmet requirement, whatever the
/// assessment said. An add-function run ended "Goal achieved" on an
/// assessment that read `count_vowels` into a textutil.py without it.
pub fn hold_to_named(
    goal: &str,
    mut requirements: Vec<Requirement>,
    defined: impl Fn(&str) -> bool,
) -> Vec<Requirement> {
    for name in crate::lang::called_names(goal) {
        if defined(&name) {
            continue;
        }
        // Already unmet by the assessment's word: a second requirement of
        // it would be a second subtask of the cycle, to be "changed" after
        // the first one made it true (an add-function run spent its last
        // rounds there on edits that changed nothing).
        // Its work is the definition, not tests of it: one the assessment
        // held to tests (a library's function, see `shown_by_library`)
        // and whose words do not ask for tests is not about them until it
        // is there. y1's add-function cycle was planned as "Write
        // test_textutil.py: make this true: add a function count_vowels
        // to textutil.py", and the model wrote count_vowels in the tests.
        let unmet = |r: &Requirement| {
            !r.met
                && crate::text::has_word(&r.requirement, &name)
                && !speaks_of_tests(&r.requirement, |_| false)
        };
        if let Some(requirement) = requirements.iter_mut().find(|r| unmet(r)) {
            requirement.evidence = undefined(&name);
            requirement.about_tests = false;
            continue;
        }
        requirements.push(Requirement {
            requirement: format!("{name} is defined as the goal says"),
            met: false,
            evidence: undefined(&name),
            about_tests: false,
            about_output: false,
            shown_by: None,
            file: None,
        });
    }
    requirements
}

/// The names the goal calls packages: the word after "package" (past
/// "named" or "called") and the word before it, each a name of letters,
/// digits and underscores (`wordplay` of "a Python package wordplay",
/// `mathx` of "a mathx package").
pub fn package_names(goal: &str) -> Vec<String> {
    let words: Vec<String> = goal
        .split_whitespace()
        .map(|w| {
            w.trim_matches(|c: char| !c.is_alphanumeric() && c != '_')
                .to_string()
        })
        .collect();
    let name = |w: &String| {
        w.chars().next().is_some_and(|c| c.is_alphabetic())
            && w.chars().all(|c| c.is_alphanumeric() || c == '_')
    };
    let mut names: Vec<String> = Vec::new();
    for (at, word) in words.iter().enumerate() {
        if !word.eq_ignore_ascii_case("package") {
            continue;
        }
        let after = words[at + 1..]
            .iter()
            .find(|w| !["named", "called"].contains(&w.to_lowercase().as_str()));
        let before = at.checked_sub(1).map(|b| &words[b]);
        for found in [after, before].into_iter().flatten().filter(|w| name(w)) {
            if !names.contains(found) {
                names.push(found.clone());
            }
        }
    }
    names
}

/// Each package the goal asks for (see [`package_names`]) that this run
/// made a module of instead (`module_for`: the module, `wordplay.py`, and
/// the package's own file, `wordplay/__init__.py`): an unmet requirement
/// about that file, whose evidence says the code goes there. t79's
/// wordplay ("Make a Python package wordplay ...") wrote `wordplay.py`, and
/// the run ended "Goal achieved"; t83's cycle, told only "Change
/// wordplay.py: make this true: wordplay is a package", wrote
/// `wordplay/__init__.py` as an import of the package from itself.
pub fn hold_to_packages(
    goal: &str,
    mut requirements: Vec<Requirement>,
    module_for: impl Fn(&str) -> Option<(String, String)>,
) -> Vec<Requirement> {
    for name in package_names(goal) {
        let Some((module, file)) = module_for(&name) else {
            continue;
        };
        let text = format!(
            "{name} is a package, as the goal asks: a folder {name}/ whose __init__.py gives what \
             the goal names"
        );
        requirements.retain(|r| r.requirement != text);
        requirements.push(Requirement {
            requirement: text,
            met: false,
            evidence: format!(
                "{module} is a module, not a package; there is no folder {name}/: {file} holds \
                 the code of {module} itself, and imports nothing from {name}"
            ),
            about_tests: false,
            about_output: false,
            shown_by: None,
            file: Some(file),
        });
    }
    requirements
}

/// The evidence of a name the goal calls that no source file defines (see
/// [`hold_to_named`]); [`named_apart`] finds its requirements by it.
fn undefined(name: &str) -> String {
    format!("no source file of the workspace defines {name}")
}

/// A name the goal calls that no file defines (see [`hold_to_named`]), when
/// a source file defines it under a longer name (`near`: the path and the
/// name, `snake_case` for `snake`): the evidence says so, and the
/// requirement is about that file. t26's textcase wrote `snake_case` for a
/// goal that calls `snake(s)`; its cycles were to "change
/// textcase/__init__.py: make this true: snake is defined as the goal
/// says", and the model imported names that did not exist.
pub fn named_apart(
    goal: &str,
    mut requirements: Vec<Requirement>,
    near: impl Fn(&str) -> Option<(String, String)>,
) -> Vec<Requirement> {
    for name in crate::lang::called_names(goal) {
        let undefined = undefined(&name);
        let Some(requirement) = requirements
            .iter_mut()
            .find(|r| !r.met && r.evidence == undefined)
        else {
            continue;
        };
        let Some((path, other)) = near(&name) else {
            continue;
        };
        requirement.evidence = format!(
            "{undefined}; {path} defines {other}: the goal calls it {name}, so that must be its \
             name"
        );
        requirement.file = Some(path);
    }
    requirements
}

/// Whether `other`, a name a file defines, is `name` with more words to it
/// (`snake_case`, `to_snake` for `snake`).
pub fn longer_name(other: &str, name: &str) -> bool {
    other != name
        && (other.starts_with(&format!("{name}_"))
            || other.ends_with(&format!("_{name}"))
            || other.contains(&format!("_{name}_")))
}

/// The files of the workspace that call a name the goal gives (see
/// [`hold_to_exercised`]), by their language.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Callers {
    /// A test file calls it.
    pub tested: bool,
    /// The programs (not tests) that call it.
    pub programs: Vec<String>,
    /// The test file its tests belong in, when there is one now (a cycle
    /// adds the test there).
    pub test_file: Option<String>,
}

/// The requirement [`hold_to_exercised`] adds for `name`.
fn exercised_requirement(name: &str) -> String {
    format!("a test calls {name} and passes")
}

/// Every name the goal gives in call form (`count_vowels(text)`), defined
/// by a source file of the workspace, is exercised by something that ran:
/// a test that calls it, when the last checks ran tests and they passed,
/// or a program that calls it, run to show a requirement about output
/// that held. Otherwise what it does was only read, and an unmet
/// requirement about tests says so (a cycle writes the test). `callers`
/// gives, by the languages, what calls a name, `None` when the languages
/// cannot tell or no source file defines it ([`hold_to_named`] judges
/// that). An add-function run (`--api openai`) wrote `count_vowels` as a
/// copy of `reverse`, and the assessment called it met by reading it.
pub fn hold_to_exercised(
    goal: &str,
    mut requirements: Vec<Requirement>,
    checks: &[CheckRun],
    callers: impl Fn(&str) -> Option<Callers>,
) -> Vec<Requirement> {
    let tests_passed = checks.iter().any(CheckRun::tests_passed);
    for name in crate::lang::called_names(goal) {
        let Some(callers) = callers(&name) else {
            continue;
        };
        let shown = requirements.iter().any(|r| {
            r.met
                && r.is_about_output()
                && r.shown_by.as_ref().is_some_and(|s| {
                    s.command
                        .split_whitespace()
                        .any(|word| callers.programs.iter().any(|p| p == word))
                })
        });
        if (callers.tested && tests_passed) || shown {
            continue;
        }
        let evidence = match (callers.tested, checks.is_empty()) {
            (true, true) => format!("a test calls {name}, but no check ran the tests"),
            (true, false) => {
                format!("a test calls {name}, but the last check ran no test that passed")
            }
            (false, _) => format!(
                "no test calls {name} and no run showed what it gives: it was only read, never \
                 run"
            ),
        };
        // One the model listed again, or one of the last cycle's.
        let about = |r: &Requirement| r.about_tests && crate::text::has_word(&r.requirement, &name);
        if let Some(requirement) = requirements.iter_mut().find(|r| about(r)) {
            if requirement.met {
                requirement.met = false;
                requirement.evidence = evidence;
            }
            requirement.file = callers.test_file.clone();
            continue;
        }
        requirements.push(Requirement {
            requirement: exercised_requirement(&name),
            met: false,
            evidence,
            about_tests: true,
            about_output: false,
            shown_by: None,
            file: callers.test_file.clone(),
        });
    }
    requirements
}

/// A file of the project a goal asks tests of (see [`hold_to_tested_code`]):
/// what its tests must call, and what no test calls yet.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TestedCode {
    pub path: String,
    /// How many public functions and methods it has (of the class the goal
    /// names, when it names one).
    pub public: usize,
    /// Those no test calls, as shown (`Inventory.remove`).
    pub untested: Vec<String>,
    /// The first line of a test of its own for each of `untested`, in its
    /// language's form (`def test_remove():`; see
    /// [`crate::lang::Language::test_head`]): what is asked for. With none
    /// untested, for each of its functions: what one test of everything is
    /// split into.
    pub heads: Vec<String>,
    /// How many test functions call them.
    pub tests: usize,
    /// Its test file, when there is one now (a cycle adds the tests there).
    pub test_file: Option<String>,
    /// Its public functions and methods (of the class the goal names), as
    /// shown, and the test files whose tests call them: what
    /// [`crate::lang::Language::mutants_command`] runs.
    pub names: Vec<String>,
    pub test_files: Vec<String>,
}

/// A goal that asks for tests of a file of the project that had none
/// (`code`, see `Agent::tested_code`) is met only by tests that call each of
/// its public functions and methods, and pass: y1's add-tests (`--api
/// openai`) ended "Goal achieved" on one test function that called `add`
/// and `count`, with `remove` never called. And with two of them or more,
/// by more than one test function: tests, not one test of everything. The
/// requirement about tests the assessment listed, or one added, says what
/// is missing.
pub fn hold_to_tested_code(
    mut requirements: Vec<Requirement>,
    code: &[TestedCode],
) -> Vec<Requirement> {
    for tested in code {
        let mut names: Vec<&str> = tested.untested.iter().map(String::as_str).take(5).collect();
        let more = tested.untested.len() - names.len();
        let listed = match (names.pop(), names.is_empty(), more) {
            (Some(last), true, 0) => last.to_string(),
            (Some(last), false, 0) => format!("{} and {last}", names.join(", ")),
            (Some(last), _, more) => {
                names.push(last);
                format!("{} and {more} more", names.join(", "))
            }
            (None, ..) if tested.public >= 2 && tested.tests < 2 => String::new(),
            (None, ..) => continue,
        };
        let evidence = match listed.is_empty() {
            true => format!(
                "one test function tests all of {}: give each of its {} functions a test of \
                 its own",
                tested.path, tested.public
            ),
            false => format!("no test calls {listed} of {}", tested.path),
        };
        // Each untested name a test of its own, in the form its tests
        // take: told "the tests call each of truncate of slug.py", t7's,
        // t10's and t12's slug-tests cycles put the call in the assert of
        // the test there (`assert slugify(...) == ... and truncate(...) ==
        // ...`), and none ended with a test of truncate that passed.
        let heads = match tested.heads.is_empty() {
            true => String::new(),
            false => format!(
                " (`{}`)",
                tested
                    .heads
                    .iter()
                    .take(3)
                    .cloned()
                    .collect::<Vec<_>>()
                    .join("`, `")
            ),
        };
        let requirement = match (listed.is_empty(), tested.untested.len()) {
            (true, _) => format!(
                "each function of {} has a test of its own that passes{heads}",
                tested.path
            ),
            (false, 1) => format!(
                "{listed} of {} has a test of its own that calls it and passes{heads}",
                tested.path
            ),
            (false, _) => format!(
                "each of {listed} of {} has a test of its own that calls it and passes{heads}",
                tested.path
            ),
        };
        // Unmet already (the tests failed), it says so first. Held unmet
        // here, it says what the tests lack in the runner's words, not the
        // assessment's: t4's slug-tests cycle was told "Make this true:
        // slug.py has no tests yet".
        if let Some(held) = requirements.iter_mut().find(|r| r.about_tests) {
            if held.met {
                held.met = false;
                held.requirement = requirement;
                held.evidence = evidence;
            }
            held.file = held.file.take().or(tested.test_file.clone());
            continue;
        }
        requirements.push(Requirement {
            requirement,
            met: false,
            evidence,
            about_tests: true,
            about_output: false,
            shown_by: None,
            file: tested.test_file.clone(),
        });
    }
    requirements
}

/// The changed copies of a file's functions (see [`crate::lang::mutants`])
/// its tests passed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Uncaught {
    pub path: String,
    /// Where its tests are (the file a cycle changes).
    pub test_file: Option<String>,
    pub survivors: Vec<crate::lang::mutants::Survivor>,
}

/// Tests asked of a file of the project are met only by tests that fail
/// when its functions are broken: with any mutant of them (a function made
/// to return None or to do nothing, an arithmetic swapped, a list's other
/// end, a bound of `min` or `max` dropped, a loop stopped after its first
/// pass), they must not all pass. stack-tests ended "Goal achieved" three
/// times on tests that pushed one item and asserted the size or the top;
/// the judge's `push` that put items at the bottom passed them. The
/// requirement about tests the
/// assessment listed, or one added, says which change no test caught and
/// what a test must assert.
pub fn hold_to_mutants(
    mut requirements: Vec<Requirement>,
    uncaught: &[Uncaught],
) -> Vec<Requirement> {
    use crate::lang::mutants::Mutant;
    for file in uncaught.iter().filter(|file| !file.survivors.is_empty()) {
        let told: Vec<String> = file
            .survivors
            .iter()
            .take(2)
            .map(|survivor| {
                let name = &survivor.name;
                match &survivor.mutant {
                    Mutant::ReturnsNothing => format!(
                        "the tests still pass when {name} returns None: add a new test function that \
                         asserts what {name} returns"
                    ),
                    Mutant::DoesNothing => format!(
                        "the tests still pass when {name} does nothing: add a new test function that \
                         asserts what {name} changes"
                    ),
                    Mutant::Arithmetic { was, now } => format!(
                        "the tests still pass when `{was}` in {name} is `{now}`: add a new test \
                         function that asserts the exact value {name} gives"
                    ),
                    Mutant::Bound { was, now } => format!(
                        "the tests still pass when `{was}` in {name} is `{now}`: add a new test \
                         function that calls {name} with values where `{was}` and `{now}` differ \
                         and asserts the exact value it gives"
                    ),
                    Mutant::Order { was, now } => format!(
                        "the tests still pass when `{was}` in {name} is `{now}`: add a new test \
                         function that puts in two items or more and asserts which comes out \
                         first"
                    ),
                    Mutant::Once { was } => format!(
                        "the tests still pass when the loop `{was}` in {name} stops after its \
                         first pass: add a new test function that calls {name} on several items \
                         where the first one does not decide the result, and asserts the exact \
                         value it gives"
                    ),
                }
            })
            .zip(&file.survivors)
            .map(|(told, survivor)| match &survivor.example {
                // A call to copy: a small model told to put in items
                // where the first does not decide wrote the same two
                // items again (t108's temps-tests).
                Some(example) => format!(
                    "{told} (for example `assert {} == {}`: with that change it gives {})",
                    example.call, example.value, example.changed
                ),
                None => told,
            })
            .collect();
        let evidence = told.join("; ");
        let requirement = format!("the tests fail when a function of {} is wrong", file.path);
        if let Some(held) = requirements.iter_mut().find(|r| r.about_tests) {
            if held.met {
                held.met = false;
                held.requirement = requirement;
                held.evidence = evidence;
                held.file = file.test_file.clone().or(held.file.take());
            }
            continue;
        }
        requirements.push(Requirement {
            requirement,
            met: false,
            evidence,
            about_tests: true,
            about_output: false,
            shown_by: None,
            file: file.test_file.clone(),
        });
    }
    requirements
}

/// What a function the goal names returned on the goal's own examples
/// (see [`crate::lang::examples`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Examined {
    pub name: String,
    /// The source file that defines it: the file a cycle changes.
    pub module: String,
    pub tried: Vec<crate::lang::examples::Tried>,
}

impl Examined {
    /// It was called on at least one example and returned what each says.
    pub fn held(&self) -> bool {
        !self.tried.is_empty() && self.tried.iter().all(|t| t.same)
    }
}

/// A call on which a function the goal names returned `got` where both of
/// the model's answers (from the goal alone) said `wanted`, a value the
/// goal's words do not give, and which of the two the model chose when
/// asked between them (see `complete::examples`): `held` when it chose
/// `wanted` whichever came first.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Settled {
    pub call: String,
    pub wanted: String,
    pub got: String,
    pub held: bool,
    /// Of a failing assert of a test the run wrote (`wanted`: what the
    /// test expects, `got`: what the code returned), not of the goal's
    /// examples: the value chosen both times is the goal's word on the
    /// call (see [`crate::state::State::goal_given`]).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub own_test: bool,
    /// The model chose `got` whichever came first.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub got_held: bool,
    /// Settled by writings of the function of their own, from the goal's
    /// words alone, not by the model's choice: two returned the value
    /// held (of a failing assert of the run's own test).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub written: bool,
}

impl Settled {
    /// The value the model chose both times, of a failing assert of the
    /// run's own test.
    pub fn own_choice(&self) -> Option<&str> {
        match (self.own_test, self.held, self.got_held) {
            (true, true, _) => Some(&self.wanted),
            (true, _, true) => Some(&self.got),
            _ => None,
        }
    }
}

/// The requirement [`hold_to_examples`] adds for `name`.
fn examples_requirement(name: &str) -> String {
    format!("{name} returns what the goal says it returns")
}

/// A function the goal names that, called on an example the goal's own
/// words give, returned something else (or raised) does not do what the
/// goal says, whatever the tests and the assessment said: an unmet
/// requirement about its file says which calls gave what. A fizzbuzz run
/// ended "Goal achieved" with `fizzbuzz(n)` returning its first number:
/// the model's one test asserted `fizzbuzz(100) == '1'` and passed, and
/// the assessment read the code as right.
pub fn hold_to_examples(
    mut requirements: Vec<Requirement>,
    examined: &[Examined],
) -> Vec<Requirement> {
    for examined in examined {
        let wrong: Vec<String> = examined
            .tried
            .iter()
            .filter(|t| !t.same)
            .take(3)
            .map(|t| match &t.got {
                Ok(got) => format!("{} returned {got}, the goal says {}", t.call, t.wanted),
                Err(why) => format!("{} {why}, the goal says it returns {}", t.call, t.wanted),
            })
            .collect();
        if wrong.is_empty() {
            continue;
        }
        let text = examples_requirement(&examined.name);
        let evidence = cut(&wrong.join("; "), 300);
        let fixed = Requirement {
            requirement: text.clone(),
            met: false,
            evidence,
            about_tests: false,
            about_output: false,
            shown_by: None,
            file: Some(examined.module.clone()),
        };
        // The model may list it again, met, from the last assessment's.
        match requirements.iter_mut().find(|r| r.requirement == text) {
            Some(requirement) => *requirement = fixed,
            None => requirements.push(fixed),
        }
    }
    requirements
}

/// Every package the goal names gives the names of its modules' own
/// definitions: for each of `unexported` (see
/// [`crate::lang::Language::unexported`]) whose package the goal names as a
/// word, an unmet requirement is added, about the file that must bind the
/// name (a cycle changes that file). A "mathx package with add and mul
/// functions" of `mathx/add.py` and `mathx/mul.py`, no `__init__.py`, ended
/// "Goal achieved": `from mathx import add` gave the module.
pub fn hold_to_exports(
    goal: &str,
    mut requirements: Vec<Requirement>,
    unexported: &[Unexported],
) -> Vec<Requirement> {
    for missing in unexported {
        let Unexported {
            package,
            name,
            module,
            binder,
            binding,
        } = missing;
        if !names_folder(goal, package.rsplit('.').next().unwrap_or(package)) {
            continue;
        }
        requirements.push(Requirement {
            requirement: format!(
                "{binder} imports {name} from {module}, so that `from {package} import {name}` \
                 gives {name}"
            ),
            met: false,
            evidence: format!(
                "{binder} does not import {name}, so `from {package} import {name}` gives the \
                 module {module}: {binder} needs the line `{binding}`"
            ),
            about_tests: false,
            about_output: false,
            shown_by: None,
            file: Some(binder.clone()),
        });
    }
    requirements
}

/// Whether `goal` gives the name of `folder` (its last part) as a word.
pub fn names_folder(goal: &str, folder: &str) -> bool {
    crate::text::has_word(goal, folder.rsplit('/').next().unwrap_or(folder))
}

/// Words by which a goal asks for tests, or for tests to pass.
const TEST_WORDS: [&str; 8] = [
    "test",
    "tests",
    "tested",
    "testing",
    "pytest",
    "unittest",
    "unittests",
    "jest",
];

/// Whether the goal speaks of tests: one of [`TEST_WORDS`], or the name
/// of a test file (`is_test`, by the languages: `test_calc.py`).
pub fn speaks_of_tests(goal: &str, is_test: impl Fn(&str) -> bool) -> bool {
    tokens(goal).any(|word| TEST_WORDS.contains(&word.to_lowercase().as_str()) || is_test(word))
}

/// A goal that speaks of tests (see [`speaks_of_tests`]) has a requirement
/// about tests: when the assessment listed none (an add-tests run listed
/// the class's methods, met from the code, and ended "Goal achieved" with
/// no test written), one is added, met only when the last checks ran tests
/// that passed and those tests are not only the ones the project had
/// unchanged (`new_tests`: the run wrote or changed a test file, or the
/// project had none, or its tests failed before the run). A goal that
/// only mentions tests is held to them passing, which it needs anyway.
pub fn hold_to_tests_asked(
    speaks: bool,
    mut requirements: Vec<Requirement>,
    checks: &[CheckRun],
    new_tests: bool,
) -> Vec<Requirement> {
    if !speaks || requirements.iter().any(|r| r.about_tests) {
        return requirements;
    }
    let passed = checks.iter().find(|check| check.tests_passed());
    let (met, evidence) = match (passed, new_tests) {
        (Some(check), true) => (
            true,
            format!("`{}` ran tests and they passed", check.command),
        ),
        (Some(_), false) => (
            false,
            "only the tests the project had ran; the run wrote no test".to_string(),
        ),
        (None, _) => (false, "the last check ran no test that passed".to_string()),
    };
    requirements.push(Requirement {
        requirement: "the tests the goal speaks of are there, run and pass".into(),
        met,
        evidence,
        about_tests: true,
        about_output: false,
        shown_by: None,
        file: None,
    });
    requirements
}

/// Whether the goal gives its program what it works on as arguments of
/// its command line ("the file given as its argument"), by its words.
pub fn speaks_of_arguments(goal: &str) -> bool {
    let goal = goal.to_lowercase();
    tokens(&goal).any(|word| ARGUMENT_WORDS.contains(&word)) || goal.contains("command line")
}

/// Whether the goal's words say its program is given something on its
/// command line ("given a number as its argument", "the file named on the
/// command line"), not only that it is a command-line tool or takes none
/// ("takes no arguments"), or that it is given what it works on ("the
/// number it is given"): what [`hold_to_arguments`] holds a program that
/// reads none to.
pub fn given_arguments(goal: &str) -> bool {
    let goal = goal.to_lowercase();
    let words: Vec<&str> = tokens(&goal).filter(|word| !word.is_empty()).collect();
    let named = words.iter().enumerate().any(|(at, word)| {
        ["argument", "arguments", "argv", "args"].contains(word)
            && !at
                .checked_sub(1)
                .is_some_and(|before| ["no", "without", "any", "zero"].contains(&words[before]))
    });
    // A program the goal says is given what it works on, in words that
    // name no function: t26's times-table, "Write table.py, which prints
    // the multiplication table of the number it is given", printed the
    // squares of 1 to 10 from a loop of its own, read no number, and the
    // run ended "Goal achieved". A goal that calls a function (`double(n)`
    // "returns the number it is given, doubled") speaks of the function's.
    let handed = [
        "it is given",
        "it's given",
        "they are given",
        "given to it",
        "it is passed",
        "passed to it",
        "it receives",
        "it is run with",
    ]
    .iter()
    .any(|words| goal.contains(words))
        && crate::lang::called_names(&goal).is_empty();
    named
        || handed
        || goal.contains("on the command line")
        || goal.contains("from the command line")
}

/// Whether the goal gives its program arguments at all: its words (see
/// [`speaks_of_arguments`], [`given_arguments`]) or a command-line option
/// it names. t27's times-table read `sys.argv[1]` for "the number it is
/// given", passed run with 5, and was told to run its bare check again
/// until the round cap: these words gave it no arguments here.
pub fn gives_arguments(goal: &str) -> bool {
    speaks_of_arguments(goal) || given_arguments(goal) || !named_options(goal).is_empty()
}

/// Whether the goal's words give its program a file on its command line
/// (see [`given_arguments`]: "the name of a text file as its argument",
/// "the file named on the command line"), not on its standard input.
pub fn given_a_file(goal: &str) -> bool {
    let lower = goal.to_lowercase();
    given_arguments(goal)
        && !reads_standard_input(goal)
        && tokens(&lower).any(|word| ["file", "filename", "files", "path"].contains(&word))
}

/// Whether the goal's words say its program reads its standard input
/// ("reads one line from standard input", "from stdin", "lines piped to
/// it"): its check gives it a file of input (see
/// `agent::decompose::to_standard_input`).
pub fn reads_standard_input(goal: &str) -> bool {
    let goal = goal.to_lowercase();
    [
        "standard input",
        "stdin",
        "std input",
        "piped to it",
        "piped into it",
    ]
    .iter()
    .any(|words| goal.contains(words))
}

/// Words by which a goal gives its program arguments.
const ARGUMENT_WORDS: [&str; 6] = [
    "argument",
    "arguments",
    "argv",
    "command-line",
    "cli",
    "args",
];

/// Words by which a goal asks for what a program prints.
const OUTPUT_WORDS: [&str; 8] = [
    "print", "prints", "printed", "printing", "output", "outputs", "display", "displays",
];

/// The requirement [`hold_to_output_asked`] adds.
pub const OUTPUT_ASKED: &str =
    "the program prints what the goal says when it is run as the goal says";

/// Whether the goal asks for what a program prints: one of
/// [`OUTPUT_WORDS`].
pub fn speaks_of_output(goal: &str) -> bool {
    tokens(goal).any(|word| OUTPUT_WORDS.contains(&word.to_lowercase().as_str()))
}

/// A goal that asks for what a program prints (see [`speaks_of_output`])
/// is met only through a requirement about output, which the runner shows
/// by running its command (see [`hold_to_output`]): when the assessment
/// listed none, an unmet one is added. A word-count run wrote a
/// `count_words` function and nothing that called it; `python3
/// word_count.py` exited 0 printing nothing, the assessment listed the
/// function's parts, met from the code, and the run ended "Goal achieved".
/// A check that printed something is no evidence either: a later word-count
/// run counted the words of its argument's name, its check printed 1, the
/// assessment listed only "it reads its arguments", and the run ended "Goal
/// achieved".
///
/// One that names an option is about output too (see
/// [`Requirement::is_about_output`]): shown by running the program with
/// it, it needs no other. A cli-flag cycle was given both, and a small
/// model asked to change greet.py to make "the program prints what the
/// goal says" true answered in prose until the run stopped.
pub fn hold_to_output_asked(speaks: bool, mut requirements: Vec<Requirement>) -> Vec<Requirement> {
    if !speaks || requirements.iter().any(Requirement::is_about_output) {
        return requirements;
    }
    requirements.push(Requirement {
        requirement: OUTPUT_ASKED.into(),
        met: false,
        evidence: "the goal asks for what the program prints, and no requirement about output \
                   was shown by running the program: give the command that shows it and the \
                   text it prints"
            .into(),
        about_tests: false,
        about_output: true,
        shown_by: None,
        file: None,
    });
    requirements
}

/// A check that passed by running a program with arguments the program
/// never reads shows nothing about what the arguments were for: an unmet
/// requirement is added for each such program (`ignores_input`: the word
/// of the command is a program of the workspace that, by its language,
/// reads neither its arguments nor its input, and no other source file
/// does). A word-count run's script counted the words of a file named in
/// its own code; its check, `python3 word_count.py word_count.py`,
/// printed 20, the assessment found "it can be run" met, and the run said
/// "Goal achieved".
///
/// So does a run that showed a requirement met (its command passed, see
/// [`Requirement::to_run`]) with a file of the workspace among its
/// arguments (`is_file`): y2's word-count script counted the words of
/// `example.txt`, named in its own code; its check was `python3
/// word_count.py` with no argument, the assessment's `python3
/// word_count.py example.txt` printed 11, and the run said "Goal achieved".
/// (A name given to a hello world the assessment ran is no file: the
/// goal asked for no argument, and the program was right to ignore it.)
///
/// A goal that gives its program arguments (`given`, see
/// [`given_arguments`]) holds every such run, whatever it passes, and
/// one that passes none: t4's countdown printed 5 to 1 from a `countdown(5)`
/// in its own code, the assessment's `python3 countdown.py 5` printed just
/// that, and the run said "Goal achieved".
pub fn hold_to_arguments(
    mut requirements: Vec<Requirement>,
    checks: &[CheckRun],
    given: bool,
    ignores_input: impl Fn(&str) -> Option<(&'static str, &'static str)>,
    is_file: impl Fn(&str) -> bool,
) -> Vec<Requirement> {
    let mut commands: Vec<String> = checks
        .iter()
        .filter(|check| check.passed())
        .map(|check| check.command.clone())
        .collect();
    for command in requirements.iter().filter_map(Requirement::to_run) {
        let gives_file = shell_words::split(command)
            .unwrap_or_default()
            .iter()
            .skip(1)
            .any(|word| is_file(word) && ignores_input(word).is_none());
        if (gives_file || given) && !commands.iter().any(|known| known == command) {
            commands.push(command.to_string());
        }
    }
    // A run that passes arguments says more of the program than a bare
    // one: each program is held by the first.
    commands.sort_by_key(|command| {
        let words = shell_words::split(command).unwrap_or_default();
        let at = words.iter().position(|word| ignores_input(word).is_some());
        at.is_none_or(|at| at + 1 >= words.len())
    });
    for command in commands {
        let words = shell_words::split(&command).unwrap_or_default();
        let Some((at, (from, first))) = words
            .iter()
            .enumerate()
            .find_map(|(at, word)| ignores_input(word).map(|from| (at, from)))
        else {
            continue;
        };
        let passes = at + 1 < words.len();
        if !passes && !given {
            continue;
        }
        let program = &words[at];
        if requirements
            .iter()
            .any(|r| !r.met && r.evidence.contains(program.as_str()))
        {
            continue;
        }
        // Where its language reads them, in the requirement the next
        // assessments list again: a small model told only that its program
        // read no argument kept calling a file named in its own code; told
        // `sys.argv` alone, it passed `*sys.argv` and never imported `sys`.
        let (requirement, how) = match (from, first) {
            ("", _) => (
                format!("{program} reads the arguments it is run with"),
                String::new(),
            ),
            (from, first) => (
                format!("{program} reads the arguments it is run with, from {from}"),
                match first {
                    "" => format!(": read them from {from}"),
                    first => format!(": read them from {from}; {first} is the first"),
                },
            ),
        };
        requirements.push(Requirement {
            requirement,
            met: false,
            evidence: match passes {
                true => format!(
                    "`{command}` passes arguments to {program}, and {program} never reads its \
                     arguments or its input (nothing in the workspace does){how}"
                ),
                false => format!(
                    "the goal gives {program} arguments, and {program} never reads its \
                     arguments or its input (nothing in the workspace does): `{command}` \
                     printed what its own code chose{how}"
                ),
            },
            about_tests: false,
            about_output: false,
            shown_by: None,
            file: Some(program.clone()),
        });
    }
    requirements
}

/// The program of the workspace `command` runs (`run_of` gives how its
/// language runs a program, `python3 welcome.py`, and nothing for a word
/// that is none), and whether words follow it: `None` when it runs none.
pub fn program_run(
    command: &str,
    run_of: impl Fn(&str) -> Option<String>,
) -> Option<(String, bool)> {
    let words = shell_words::split(command).ok()?;
    words.iter().enumerate().find_map(|(at, word)| {
        let runs = shell_words::split(&run_of(word)?).ok()?;
        (runs.as_slice() == &words[..=at]).then(|| (word.clone(), at + 1 < words.len()))
    })
}

/// For a goal whose words give its program arguments (`given`, see
/// [`given_arguments`]), a requirement the assessment shows met by a run of
/// a program of the workspace (`run_of` gives how its language runs it,
/// `python3 welcome.py`) with no words after it is not met, unless another
/// met requirement shows that program run with some (what it does with
/// none may be a case the goal names): that run cannot show what the
/// program does with the arguments the goal gives it. t65's welcome-many
/// ("welcomes every name given on the command line") printed `argv[0]`,
/// and its one requirement was met by `python3 welcome.py` printing
/// "Welcome, welcome.py!": "Goal achieved".
pub fn bare_runs_unmet(
    mut requirements: Vec<Requirement>,
    given: bool,
    run_of: impl Fn(&str) -> Option<String>,
) -> Vec<Requirement> {
    if !given {
        return requirements;
    }
    let run = |command: &str| program_run(command, &run_of);
    let shown: Vec<(String, bool)> = requirements
        .iter()
        .filter_map(Requirement::to_run)
        .filter_map(run)
        .collect();
    for requirement in &mut requirements {
        let Some(command) = requirement.to_run().map(str::to_string) else {
            continue;
        };
        let Some((program, false)) = run(&command) else {
            continue;
        };
        if shown.iter().any(|(run, passes)| *run == program && *passes) {
            continue;
        }
        requirement.met = false;
        requirement.evidence = format!(
            "`{command}` gives {program} no arguments, so it cannot show what {program} does \
             with the arguments the goal gives it: run it with some, as the goal says"
        );
    }
    requirements
}

/// A goal whose program reads its standard input (`reads`, see
/// [`reads_standard_input`]) is not met by a program that never reads it:
/// for each program a passed check or a met requirement's command runs
/// that, by its language, reads no standard input and imports nothing
/// that does (`ignores_stdin`), an unmet requirement is added. A program
/// steered to its command line, or one that counts a text of its own,
/// passes a check that gives it input and shows nothing of the input.
pub fn hold_to_standard_input(
    reads: bool,
    mut requirements: Vec<Requirement>,
    checks: &[CheckRun],
    ignores_stdin: impl Fn(&str) -> bool,
) -> Vec<Requirement> {
    if !reads {
        return requirements;
    }
    let commands: Vec<String> = checks
        .iter()
        .filter(|check| check.passed())
        .map(|check| check.command.clone())
        .chain(
            requirements
                .iter()
                .filter_map(Requirement::to_run)
                .map(str::to_string),
        )
        .collect();
    for command in commands {
        let words = shell_words::split(&command).unwrap_or_default();
        let Some(program) = words.iter().skip(1).find(|word| ignores_stdin(word)) else {
            continue;
        };
        let requirement = format!("{program} reads its standard input");
        if requirements.iter().any(|r| r.requirement == requirement) {
            continue;
        }
        requirements.push(Requirement {
            evidence: format!(
                "`{command}` runs {program}, and {program} never reads its standard input \
                 (nothing in the workspace does): the goal says it reads what it works on there"
            ),
            requirement,
            met: false,
            about_tests: false,
            about_output: false,
            shown_by: None,
            file: Some(program.clone()),
        });
    }
    requirements
}

/// The requirement [`hold_to_run`] adds for a check's `command`.
fn run_requirement(command: &str) -> String {
    format!("`{command}` runs")
}

/// A check that only wanted the arguments its command does not give (see
/// [`CheckRun::wants_arguments`]) is not a failure of the work when
/// something else ran the program's code: a run of it that showed a
/// requirement about output, or `exercised` (tests that passed call what
/// it defines, or the goal's examples held on a function of it).
/// Otherwise nothing ran past where it reads them, and an unmet
/// requirement about the program says so. A fizzbuzz run's right function
/// and passing tests ended "not achieved" for `python3 fizzbuzz.py`, whose
/// `__main__` counted up to `sys.argv[1]`.
pub fn hold_to_run(
    mut requirements: Vec<Requirement>,
    checks: &[CheckRun],
    exercised: impl Fn(&str) -> bool,
) -> Vec<Requirement> {
    for check in checks.iter().filter(|check| check.wants_arguments) {
        let Some(program) = check.command.split_whitespace().last() else {
            continue;
        };
        let text = run_requirement(&check.command);
        requirements.retain(|r| r.requirement != text);
        let shown = requirements.iter().any(|r| {
            r.met
                && r.is_about_output()
                && r.shown_by
                    .as_ref()
                    .is_some_and(|s| s.command.split_whitespace().any(|word| word == program))
        });
        if shown || exercised(program) {
            continue;
        }
        requirements.push(Requirement {
            requirement: text,
            met: false,
            evidence: format!(
                "{program} stopped where it reads the arguments or input it is run with, which \
                 `{}` does not give, and no test that passed and no example of the goal ran its \
                 code: run it with what the goal gives it, or test what it defines",
                check.command
            ),
            about_tests: false,
            about_output: false,
            shown_by: None,
            file: Some(program.to_string()),
        });
    }
    requirements
}

/// What a command (a program that ran before the plan, with an option the
/// goal names) must print, as the model said it from the goal's words and
/// what the program printed before the run, not shown the code, twice, and
/// a third time when those two disagree (see
/// [`crate::state::Event::OutputsStated`]).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct StatedOutput {
    pub command: String,
    /// The answers, in the order asked.
    pub prints: Vec<String>,
    /// What the program printed before the run, without the option (or,
    /// for a run the goal quotes, that run).
    #[serde(default)]
    pub was: String,
    /// A run the goal quotes, with no option (see [`goal_runs`]): held only
    /// to what two answers agree on, since the goal may not say what it
    /// prints.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub quoted: bool,
    /// A run the model named as one whose output the goal changes, asked
    /// when every other run the goal gives prints what it printed before
    /// (see [`shows_no_change`]): held to print something else than `was`,
    /// and to succeed. `prints` is empty.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub changes: bool,
}

impl StatedOutput {
    /// The answers that say something, and something else than the program
    /// printed before the run without the option: one that says the same
    /// answered what it prints now, not what the option must make it print
    /// (i1's second answer was `Hello, world!`, and its assessment took
    /// `HELLO, world!` for the goal). A run the goal quotes or gives as an
    /// example keeps such an answer: it was asked again, and said the goal
    /// leaves that run as it was (t77's welcome-many printed three names
    /// whatever it was given, and `welcome.py John`, which printed
    /// `Welcome, John!` before, failed).
    pub fn readings(&self) -> Vec<&str> {
        let was = spoken(&self.was);
        self.prints
            .iter()
            .filter(|answer| !spoken(answer).is_empty() && (self.quoted || spoken(answer) != was))
            .map(|answer| answer.trim())
            .collect()
    }

    /// What the command must print: the reading two answers agree on
    /// (letters, digits and their case; not spacing or punctuation). One
    /// left alone when the others were dropped is no agreement: r2's
    /// cli-chars asked what `python3 count.py --chars` prints, was
    /// answered `3` (what it printed before, so dropped) and `216`, and
    /// the plan held the change to 216 for a default text of 13
    /// characters until the model gave up.
    pub fn agreed(&self) -> Option<&str> {
        let readings = self.readings();
        readings.iter().enumerate().find_map(|(i, reading)| {
            readings[i + 1..]
                .iter()
                .any(|other| spoken(other) == spoken(reading))
                .then_some(*reading)
        })
    }

    /// What the command is held to print: what the answers agree on; for a
    /// run the goal quotes or gives as an example (see `quoted`), only a
    /// short text of one line ([`MAX_QUOTED_WORDS`] words at most): a
    /// longer one is more likely a form the model chose (a table's
    /// layout) than one the goal's words give.
    pub fn held(&self) -> Option<&str> {
        let agreed = self.agreed()?;
        let short = agreed.trim().lines().count() <= 1
            && spoken(agreed).split(' ').count() <= MAX_QUOTED_WORDS;
        (!self.quoted || short).then_some(agreed)
    }

    /// Whether the answers that were given are all asked: a third one is
    /// asked when the first two leave nothing agreed.
    pub fn settled(&self) -> bool {
        self.agreed().is_some() || self.prints.len() >= 3
    }
}

/// The quoted runs of `outputs` but those whose arguments are what another
/// run of the same program is held to print, while they are not held to
/// print that run's arguments: the goal's output read as an input. t78's
/// binary ("for example 10 gives 1010") was asked of `binary.py 10` and of
/// `binary.py 1010`, held to `1010` both, and its right program could never
/// meet the second. A pair each of which prints the other's arguments (a
/// program that reverses its word) is kept.
pub fn without_outputs_read_as_inputs(outputs: Vec<StatedOutput>) -> Vec<StatedOutput> {
    let split = |command: &str| shell_words::split(command).unwrap_or_default();
    let read_as_input = |run: &StatedOutput| {
        let words = split(&run.command);
        run.quoted
            && outputs.iter().any(|other| {
                let theirs = split(&other.command);
                let shared = words
                    .iter()
                    .zip(&theirs)
                    .take_while(|(a, b)| a == b)
                    .count();
                let (Some(held), true) = (other.held(), other.quoted && shared >= 2) else {
                    return false;
                };
                let (mine, its) = (words[shared..].join(" "), theirs[shared..].join(" "));
                !mine.is_empty()
                    && spoken(&mine) == spoken(held)
                    && run
                        .held()
                        .is_none_or(|printed| spoken(printed) != spoken(&its))
            })
    };
    let dropped: Vec<bool> = outputs.iter().map(read_as_input).collect();
    outputs
        .into_iter()
        .zip(dropped)
        .filter_map(|(output, dropped)| (!dropped).then_some(output))
        .collect()
}

/// Words of letters and digits of a text a quoted run is held to, at most
/// (see [`StatedOutput::held`]).
pub const MAX_QUOTED_WORDS: usize = 4;

/// A text's words of letters and digits, in their case, one space apart:
/// what two outputs share when they say the same (`HELLO, WORLD!` and
/// `HELLO WORLD`), and not when the case differs (`HELLO, world!`).
pub(crate) fn spoken(text: &str) -> String {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|word| !word.is_empty())
        .collect::<Vec<_>>()
        .join(" ")
}

/// Whether `printed` says `expects`: its words of letters and digits, in
/// their case, one after another among the printed ones (`13` is not said
/// by `213`).
pub(crate) fn says(printed: &str, expects: &str) -> bool {
    let (printed, expects) = (spoken(printed), spoken(expects));
    !expects.is_empty() && format!(" {printed} ").contains(&format!(" {expects} "))
}

fn stated_requirement(command: &str, expects: &str) -> String {
    format!("`{command}` prints {expects:?}, as the goal's words say")
}

fn read_requirement(command: &str) -> String {
    format!("`{command}` prints what the goal's words say")
}

fn changed_requirement(command: &str, was: &str) -> String {
    match spoken(was).is_empty() {
        true => format!("`{command}` succeeds, as the goal changes the program"),
        false => format!(
            "`{command}` prints something else than {:?}, what it printed before the run, as \
             the goal changes what it prints",
            cut(was.trim(), 80)
        ),
    }
}

/// Whether the runs the goal quotes or gives as examples show no change:
/// each of them that printed something before the run is held to print
/// that again (the goal leaves it as it was), and no run is held to
/// anything else. t78's welcome-many gave `welcome.py John` and
/// `welcome.py Jane` as its examples, each printed what it printed before,
/// and a program left as it was ended "Goal achieved" though the goal asked
/// it to welcome every name it is given.
pub fn shows_no_change(outputs: &[StatedOutput]) -> bool {
    let held: Vec<(&StatedOutput, &str)> = outputs
        .iter()
        .filter_map(|o| o.held().map(|text| (o, text)))
        .collect();
    let as_before = |(o, text): &(&StatedOutput, &str)| {
        o.quoted && !spoken(&o.was).is_empty() && spoken(text) == spoken(&o.was)
    };
    let unsaid = |(o, _): &(&StatedOutput, &str)| o.quoted && spoken(&o.was).is_empty();
    held.iter().any(as_before) && held.iter().all(|h| as_before(h) || unsaid(h))
}

/// Each command whose output the model stated from the goal's words
/// (`stated`) against its run now (`runs`: the command and what it
/// printed, `None` when it failed). When two answers agree, a requirement
/// met when the output says that (its words, in their case), else not
/// met, shown by the command (a cycle runs it until it does): g1's
/// cli-flag ended "Goal achieved" with `greet.py --shout` printing
/// `HELLO, world!`, its assessment having taken the output it was shown
/// for what the goal asks. When the three answers disagree, what the
/// output must be is not known, but it is held all the same: met only
/// when the output says one of them, which a reading made apart from the
/// code and from the output foresaw; else not met, with no text to aim at
/// (a cycle steered to a reading that may be wrong would write it). h2's
/// cli-chars answers were `13` and `4`, and an assessment that is shown
/// the output reads it as right.
pub fn hold_to_stated(
    mut requirements: Vec<Requirement>,
    stated: &[StatedOutput],
    runs: &[(String, Option<String>)],
) -> Vec<Requirement> {
    for output in stated {
        if output.changes {
            let Some((_, printed)) = runs.iter().find(|(command, _)| *command == output.command)
            else {
                continue;
            };
            let text = changed_requirement(&output.command, &output.was);
            requirements.retain(|r| r.requirement != text);
            let met = printed
                .as_deref()
                .is_some_and(|printed| spoken(printed) != spoken(&output.was));
            let evidence = match printed {
                None => "it failed".to_string(),
                Some(printed) => format!("it printed {:?}", cut(printed.trim(), 80)),
            };
            requirements.push(stated_run(text, met, evidence, &output.command, ""));
            continue;
        }
        let readings = output.readings();
        if readings.is_empty() {
            continue;
        }
        let Some((_, printed)) = runs.iter().find(|(command, _)| *command == output.command) else {
            continue;
        };
        let agreed = output.held();
        if output.quoted && agreed.is_none() {
            continue;
        }
        let text = match agreed {
            Some(expects) => stated_requirement(&output.command, expects),
            None => read_requirement(&output.command),
        };
        requirements.retain(|r| r.requirement != text);
        let met = printed.as_deref().is_some_and(|printed| match agreed {
            Some(expects) => says(printed, expects),
            None => readings.iter().any(|reading| says(printed, reading)),
        });
        let evidence = match (printed, agreed, met) {
            (None, ..) => "it failed".to_string(),
            (Some(printed), None, false) => format!(
                "it printed {:?}, and no reading of the goal's words made apart from the code \
                 foresaw that",
                cut(printed.trim(), 80)
            ),
            (Some(printed), ..) => format!("it printed {:?}", cut(printed.trim(), 80)),
        };
        // With nothing agreed, a text of the assessment's own for the same
        // command that no reading gave is a reading made beside the code
        // and the output: the requirement is held as this one is, with no
        // text to aim at. s2's cli-flag printed the right `HELLO, WORLD!`
        // (a lone reading); the assessment wanted `HELLO, world!` of it,
        // and its cycle made the program shout without the flag.
        if agreed.is_none() {
            for other in &mut requirements {
                let Some(shown_by) = &mut other.shown_by else {
                    continue;
                };
                if words(&shown_by.command) != words(&output.command)
                    || readings
                        .iter()
                        .any(|r| spoken(r) == spoken(&shown_by.expects))
                {
                    continue;
                }
                other.met = met;
                other.evidence = format!(
                    "{evidence}; what it must print is held to the readings of the goal's words \
                     made apart from the code, not to {:?}",
                    shown_by.expects
                );
                shown_by.expects = String::new();
            }
        }
        requirements.push(stated_run(
            text,
            met,
            evidence,
            &output.command,
            agreed.unwrap_or_default(),
        ));
    }
    requirements
}

/// A requirement of what a stated run prints (see [`hold_to_stated`]),
/// shown by that run.
fn stated_run(
    requirement: String,
    met: bool,
    evidence: String,
    command: &str,
    expects: &str,
) -> Requirement {
    Requirement {
        requirement,
        met,
        evidence,
        about_tests: false,
        about_output: true,
        shown_by: Some(ShownBy {
            command: command.to_string(),
            expects: expects.to_string(),
        }),
        file: None,
    }
}

/// Each requirement the assessment shows by a command whose output the
/// model stated from the goal's words, and the answers agree on (see
/// [`StatedOutput::agreed`]), is held to that text instead of the one the
/// assessment gave: a reading made apart from the code and the output
/// over one made beside them. k2's cli-flag printed the agreed `HELLO,
/// WORLD!`; the assessment gave its own requirement of `python3 greet.py
/// --shout` the text `HELLO, world!`, found it unmet, and its cycle asked
/// the model to make the program print that.
pub fn to_stated(mut requirements: Vec<Requirement>, stated: &[StatedOutput]) -> Vec<Requirement> {
    for output in stated {
        let Some(expects) = output.held() else {
            continue;
        };
        for requirement in &mut requirements {
            if let Some(shown_by) = &mut requirement.shown_by
                && words(&shown_by.command) == words(&output.command)
            {
                shown_by.expects = expects.to_string();
            }
        }
    }
    requirements
}

/// The text a program printed before the run that a requirement of what it
/// prints still holds to, at most: a longer output is held by its head.
const KEPT_OUTPUT: usize = 200;

fn kept_requirement(command: &str) -> String {
    format!("`{command}` prints what it printed before this run")
}

/// The programs that ran before the plan (`before`, see
/// [`crate::state::Event::RanBefore`]) against their runs among the last
/// `checks`: a goal that names options (`options`) asks to change what
/// they do, not what a run without them prints. A run that prints
/// otherwise now is a requirement not met, shown by that run and what it
/// printed before (a cycle runs it until it prints that again); one that
/// prints the same, a requirement met. A cli-flag run made `greeting`
/// return capitals for every run, and `python3 greet.py`, the plan's
/// check, passed with `HELLO, WORLD!`.
pub fn hold_to_kept(
    mut requirements: Vec<Requirement>,
    checks: &[CheckRun],
    before: &[CheckRun],
    options: &[String],
) -> Vec<Requirement> {
    for was in before.iter().filter(|run| run.passed()) {
        let Some(now) = checks
            .iter()
            .find(|check| words(&check.command) == words(&was.command))
        else {
            continue;
        };
        let text = kept_requirement(&was.command);
        requirements.retain(|r| r.requirement != text);
        let (then, printed) = (
            crate::tools::printed(&was.output),
            crate::tools::printed(&now.output),
        );
        let same = prints_as_before(was, now);
        if same {
            requirements = as_before(requirements, &was.command, &printed);
        }
        let expects = match then.char_indices().nth(KEPT_OUTPUT) {
            Some((at, _)) => then[..at].trim().to_string(),
            None => then.trim().to_string(),
        };
        requirements.push(Requirement {
            requirement: text,
            met: same,
            evidence: match same {
                true => format!("it printed {:?}, as before", cut(expects.as_str(), 80)),
                false => format!(
                    "it printed {:?}; before this run it printed {:?}, and the goal asks to \
                     change what {} does, not what it prints without {}",
                    cut(printed.trim(), 80),
                    cut(expects.as_str(), 80),
                    options.join(" and "),
                    match options.len() {
                        1 => "it",
                        _ => "them",
                    }
                ),
            },
            about_tests: false,
            about_output: true,
            shown_by: (!expects.is_empty()).then(|| ShownBy {
                command: was.command.clone(),
                expects,
            }),
            file: was.command.split_whitespace().last().map(str::to_string),
        });
    }
    requirements
}

/// `requirements` without the unmet ones shown by `command`, a program
/// that prints as it did before the run (`printed`), whose text it prints:
/// what the requirement that it prints as before says, met. One such
/// requirement may name the goal's option and be held unmet for a run
/// that does not pass it ("print the greeting in lowercase when the
/// --shout flag is not provided", shown by `python3 greet.py` printing
/// "Hello, world!": t29's cli-flag, whose cycle then made the program
/// print "HELLO, !"); it goes only while another requirement is shown by
/// a run that passes each option it names, so what the option does is
/// still judged.
fn as_before(requirements: Vec<Requirement>, command: &str, printed: &str) -> Vec<Requirement> {
    let passing: Vec<String> = requirements
        .iter()
        .filter_map(|r| r.shown_by.as_ref())
        .flat_map(|shown| {
            tokens(&shown.command)
                .map(str::to_string)
                .collect::<Vec<_>>()
        })
        .collect();
    let goes = |r: &Requirement| {
        !r.met
            && r.shown_by.as_ref().is_some_and(|shown| {
                words(&shown.command) == words(command) && holds(printed, &shown.expects).is_ok()
            })
            && options(&r.requirement).all(|option| passing.iter().any(|p| p == option))
    };
    requirements.into_iter().filter(|r| !goes(r)).collect()
}

/// Whether a run of a program that ran before the plan (`was`) passes now
/// and prints what it printed then, its runs of white space aside.
pub fn prints_as_before(was: &CheckRun, now: &CheckRun) -> bool {
    let then = crate::tools::printed(&was.output);
    now.passed() && words(&crate::tools::printed(&now.output)) == words(&then)
}

/// Why `requirement` is not shown by `runs`, or its evidence when it is
/// (`Ok`, written into the requirement).
fn shown(requirement: &mut Requirement, runs: &[Shown]) -> Result<(), String> {
    let (Some(command), Some(shown_by)) = (requirement.to_show(), &requirement.shown_by) else {
        return Err("no command was given that shows it when it runs".into());
    };
    let expects = shown_by.expects.trim();
    if expects.is_empty() {
        return Err(format!("`{command}` was given no output it must print"));
    }
    let passed: Vec<&str> = command.split_whitespace().collect();
    if let Some(option) = options(&requirement.requirement).find(|o| !passed.contains(o)) {
        return Err(not_passing(command, option));
    }
    let Some(run) = runs.iter().find(|run| run.command == command) else {
        return Err(format!("`{command}` was not run"));
    };
    if let Some(why) = &run.not_run {
        return Err(format!("`{command}` was not run: {why}"));
    }
    match run.exit_code {
        Some(0) => {}
        Some(code) => return Err(run.failed(code)),
        None => return Err(format!("`{command}` did not finish")),
    }
    let printed = words(&run.printed);
    let found = holds(&run.printed, expects).map_err(|why| match describes(expects) {
        true => format!(
            "`{command}` printed {:?}; the text it must print was described, not given \
             ({:?}): say what it prints",
            cut(printed.trim(), 80),
            cut(expects, 80)
        ),
        false => format!("`{command}` {why}"),
    })?;
    // A parsed option is not printed back: output that holds it took it
    // for an argument (`HELLO, --SHOUT!`).
    let lower = printed.to_lowercase();
    if let Some(option) =
        options(&requirement.requirement).find(|o| lower.contains(&o.to_lowercase()))
    {
        return Err(format!(
            "`{command}` printed {option} back ({:?}): the program took it for an argument",
            cut(printed.trim(), 80)
        ));
    }
    if let Some(without) = requirement.to_show_without() {
        let Some(plain) = runs.iter().find(|run| run.command == without) else {
            return Err(format!("`{without}` was not run beside it"));
        };
        if plain.exit_code == run.exit_code && words(&plain.printed) == printed {
            return Err(format!(
                "`{command}` printed the same as `{without}`: the option changes nothing"
            ));
        }
    }
    requirement.evidence = format!("`{command}` printed {found:?}");
    Ok(())
}

/// The text of `expects` (as given, without the quotes around it, or one
/// text quoted inside it when it speaks of output) that `printed` (a command's output) holds, its
/// runs of whitespace aside; or what it printed instead: `printed "Hello,
/// --shout!", which does not hold "HELLO, WORLD!"`. A small model asked
/// for the text often says what the output should be: "The output should
/// be 'No file path provided'." holds when "No file path provided" is
/// printed; a description with nothing quoted never does.
pub fn holds<'a>(printed: &str, expects: &'a str) -> Result<&'a str, String> {
    let expects = expects.trim();
    let unquoted = expects.trim_matches(|c| matches!(c, '"' | '\'' | '`'));
    let all = words(printed);
    if let Some(found) = [expects, unquoted]
        .into_iter()
        .chain(described_quotes(expects))
        .find(|wanted| !wanted.trim().is_empty() && bounded(&all, &words(wanted)))
    {
        return match repeated_line(printed, found) {
            None => Ok(found),
            Some((line, times, wanted)) => Err(format!(
                "printed {:?} {times} times, where the lines expected have it {}",
                cut(&line, 80),
                match wanted {
                    1 => "once".to_string(),
                    n => format!("{n} times"),
                },
            )),
        };
    }
    Err(match printed.lines().find(|l| !l.trim().is_empty()) {
        Some(line) => format!(
            "printed {:?}, which does not hold {expects:?}{}",
            cut(line.trim(), 80),
            difference(line, unquoted)
                .map(|d| format!(": {d}"))
                .unwrap_or_default()
        ),
        None => format!("printed nothing, where {expects:?} was expected"),
    })
}

/// For a text of several lines that `printed` holds: a line of it that
/// `printed` shows on more of its lines than the text does, with both
/// counts. Lines of several are a sequence, and holding it as a part of
/// the output is not printing it when a line of it is printed again
/// elsewhere: t70's welcome-many printed the first name before its loop
/// over all of them, and the output held `Welcome, arg1!\nWelcome,
/// arg2!...` after its doubled first line. A text of one line is a line
/// the output holds, however often.
fn repeated_line(printed: &str, expects: &str) -> Option<(String, usize, usize)> {
    let lines: Vec<String> = expects
        .lines()
        .map(words)
        .filter(|line| !line.is_empty())
        .collect();
    if lines.len() < 2 {
        return None;
    }
    let out: Vec<String> = printed.lines().map(words).collect();
    lines.iter().find_map(|line| {
        let wanted = lines.iter().filter(|l| *l == line).count();
        let times = out.iter().filter(|l| *l == line).count();
        (times > wanted).then(|| (line.clone(), times, wanted))
    })
}

/// The words a line printed and the text it must print differ in, when
/// they have as many words (of letters and digits) and differ in at most
/// `MAX_DIFFERENT` of them: `it printed world where WORLD must be`. A
/// cli-flag run told only that `HELLO, world!` does not hold `HELLO,
/// WORLD!` rewrote the line that already printed `HELLO` until its
/// rounds ran out.
pub fn difference(line: &str, expects: &str) -> Option<String> {
    const MAX_DIFFERENT: usize = 3;
    let (printed, wanted) = (spoken(line), spoken(expects));
    let (printed, wanted): (Vec<&str>, Vec<&str>) =
        (printed.split(' ').collect(), wanted.split(' ').collect());
    if printed.len() != wanted.len() {
        return None;
    }
    let pairs: Vec<String> = printed
        .iter()
        .zip(&wanted)
        .filter(|(p, w)| p != w)
        .map(|(p, w)| format!("{p} where {w} must be"))
        .collect();
    if pairs.is_empty() || pairs.len() > MAX_DIFFERENT || pairs.len() >= wanted.len() {
        return None;
    }
    // Words that differ in case only, where what must be printed is all in
    // one case: k3's cli-flag model, told `it printed world where WORLD
    // must be`, wrote `HELLO` into its string again and again, and left the
    // name it put in as it came.
    let case_only = printed
        .iter()
        .zip(&wanted)
        .all(|(p, w)| p.to_lowercase() == w.to_lowercase());
    let case = match expects {
        _ if !case_only => "",
        e if e == e.to_uppercase() => {
            ": all of the line must be in capitals, what the program puts in from a value as \
             well as its own words"
        }
        e if e == e.to_lowercase() => {
            ": all of the line must be in small letters, what the program puts in from a value \
             as well as its own words"
        }
        _ => "",
    };
    Some(format!("it printed {}{case}", pairs.join(", and ")))
}

/// The arguments of `command` after its program that look like a file
/// (a name with a letter after its last dot: `test.txt`, `data/in.csv`)
/// and that `exists` says are not there.
pub fn absent(command: &str, exists: impl Fn(&str) -> bool) -> Vec<String> {
    let words = shell_words::split(command).unwrap_or_default();
    words
        .into_iter()
        .skip(1)
        .filter(|word| !word.starts_with('-'))
        .filter(|word| file_like(word))
        .filter(|word| !exists(word))
        .collect()
}

/// Whether a word looks like a file's name: a letter after its last dot
/// (`test.txt`, `data/in.csv`; not `8.00`).
fn file_like(word: &str) -> bool {
    word.rsplit_once('.').is_some_and(|(stem, ext)| {
        !stem.is_empty() && ext.chars().next().is_some_and(|c| c.is_ascii_alphabetic())
    })
}

/// `; test.txt is no file of the workspace: write it ...` for the files a
/// failed command was given that are not there, nothing when none.
pub fn absent_note(absent: &[String]) -> String {
    match absent {
        [] => String::new(),
        [one] => format!(
            "; {one} is no file of the workspace: write it (a sample it reads) before running it"
        ),
        many => format!(
            "; {} are no files of the workspace: write them (samples it reads) before running it",
            many.join(", ")
        ),
    }
}

/// Whether an expected output reads as a description of the output, not
/// the output: more than [`DESCRIBED_WORDS`] words with nothing quoted in
/// them ("The output should be the number of words in the file."). No
/// output holds it; only the assessment, asked again, can say what the
/// output must be.
pub fn describes(expects: &str) -> bool {
    expects.split_whitespace().count() > DESCRIBED_WORDS && quoted(expects).is_empty()
}

/// Words of an expected output beyond which it reads as a description.
const DESCRIBED_WORDS: usize = 8;

/// The texts quoted inside an expected output that speaks of output
/// around them ("The output should be 'No file path provided'.", "It
/// prints \"5\""): what it quotes is the output. In a literal output
/// (`You chose 'rock'`) a quoted part is only part of it: none.
pub(crate) fn described_quotes(expects: &str) -> Vec<&str> {
    let texts = quoted(expects);
    let mut around = expects.to_string();
    for text in &texts {
        around = around.replacen(text, " ", 1);
    }
    let speaks = tokens(&around).any(|word| OUTPUT_WORDS.contains(&word.to_lowercase().as_str()));
    if speaks { texts } else { Vec::new() }
}

/// The texts quoted inside `text`: between two of the same quote, the
/// first at the start or after a space or a colon, the second at the end
/// or before a space or a sentence's punctuation (an apostrophe in a word,
/// `program's`, opens nothing).
pub(crate) fn quoted(text: &str) -> Vec<&str> {
    let mut found = Vec::new();
    let mut rest = text;
    let mut offset = 0;
    while let Some(at) = rest.find(['"', '\'', '`']) {
        let start = offset + at;
        let quote = text[start..].chars().next().unwrap_or('"');
        let opens = text[..start]
            .chars()
            .next_back()
            .is_none_or(|c| c.is_whitespace() || c == ':' || c == '(');
        let inner = start + quote.len_utf8();
        let close = opens
            .then(|| {
                text[inner..]
                    .match_indices(quote)
                    .map(|(i, _)| inner + i)
                    .find(|&end| {
                        text[end + quote.len_utf8()..]
                            .chars()
                            .next()
                            .is_none_or(|c| c.is_whitespace() || ".,;:!?)".contains(c))
                    })
            })
            .flatten();
        match close {
            Some(end) => {
                found.push(&text[inner..end]);
                offset = end + quote.len_utf8();
            }
            None => offset = inner,
        }
        rest = &text[offset..];
    }
    found
}

/// The runs of a program of the workspace with words after it that `goal`
/// quotes (`python tip.py 40 20`), as its language runs it (`run_of` gives
/// that for a program's word, `python3 tip.py`), the words after it kept,
/// each once, in order: what such a run prints is asked of the model from
/// the goal's words alone (see [`StatedOutput`]). One that passes an
/// option (asked of apart, see [`with_value`]), a file of the workspace
/// (`is_file`: what it prints hangs on the file's content, see
/// `crate::state::samples`) or a word of the shell (`|`, `>`) is left out.
/// t73's tip-percent ("... so that `python tip.py 40 20` prints 8.00")
/// ended "Goal achieved" with the program printing 6.00 for it.
pub fn goal_runs(
    goal: &str,
    run_of: impl Fn(&str) -> Option<String>,
    is_file: impl Fn(&str) -> bool,
) -> Vec<String> {
    let mut found: Vec<String> = Vec::new();
    for span in quoted(goal) {
        let Ok(words) = shell_words::split(span) else {
            continue;
        };
        let Some((at, run)) = words
            .iter()
            .enumerate()
            .take(2)
            .find_map(|(at, word)| run_of(word).map(|run| (at, run)))
        else {
            continue;
        };
        let Some(command) = plain_run(&run, &words[at + 1..], &is_file) else {
            continue;
        };
        if !found
            .iter()
            .any(|known| words_of(known) == words_of(&command))
        {
            found.push(command);
        }
    }
    found
}

/// A program's run (`run`, `python3 binary.py`) with `words` after it,
/// when there are some and none is an option, a file of the workspace
/// (`is_file`) or a name that looks like one (what the run prints hangs on
/// a content the goal's words do not give), or a word of the shell (see
/// [`goal_runs`]).
pub fn plain_run(run: &str, words: &[String], is_file: impl Fn(&str) -> bool) -> Option<String> {
    let plain = |word: &String| {
        !word.is_empty()
            && !word.starts_with('-')
            && !is_file(word)
            && !file_like(word)
            && !word.chars().any(|c| "|<>&;$`".contains(c))
    };
    (!words.is_empty() && words.iter().all(plain))
        .then(|| format!("{run} {}", shell_words::join(words)))
}

/// The first program the goal's words name by its path (`binary.py`,
/// punctuation around it aside) that `run_of` runs: the word and its run.
pub fn named_program(
    goal: &str,
    run_of: impl Fn(&str) -> Option<String>,
) -> Option<(String, String)> {
    goal.split_whitespace()
        .map(|word| word.trim_matches(|c: char| !(c.is_alphanumeric() || "._/-".contains(c))))
        .map(|word| word.trim_end_matches('.'))
        .find_map(|word| run_of(word).map(|run| (word.to_string(), run)))
}

fn words_of(command: &str) -> Vec<&str> {
    command.split_whitespace().collect()
}

/// The option of `command` that its output `printed` gives back (any
/// case): the program took it for an argument (`HELLO, --SHOUT!`).
pub fn printed_back<'a>(command: &'a str, printed: &str) -> Option<&'a str> {
    let lower = printed.to_lowercase();
    options(command).find(|option| lower.contains(&option.to_lowercase()))
}

/// The command-line options `text` (a goal) names, each once, in order.
pub fn named_options(text: &str) -> Vec<String> {
    let mut found: Vec<String> = Vec::new();
    for option in options(text) {
        if !found.iter().any(|known| known == option) {
            found.push(option.to_string());
        }
    }
    found
}

/// The options `text` (a goal) names that it gives no value (`--shout`,
/// not `--times N`), each once, in order.
pub fn named_flags(text: &str) -> Vec<String> {
    named_options(text)
        .into_iter()
        .filter(|option| !takes_value(text, option))
        .collect()
}

/// `option` as a run of the program passes it: with a value when `text`
/// (a goal) gives it one (see [`takes_value`]): the goal's own when it is a
/// number (`--times 3`), else `2`, which reads as a number and as a word
/// alike (`--times N` gives `--times 2`). A bare `--times` fails a program
/// that reads its value, right or wrong (t1's repeat-times was told so
/// after every write).
pub fn with_value(text: &str, option: &str) -> String {
    if !takes_value(text, option) {
        return option.to_string();
    }
    let mut words = tokens(text).filter(|word| !word.is_empty());
    let given = words
        .by_ref()
        .find(|word| *word == option)
        .and_then(|_| words.next())
        .filter(|value| value.parse::<f64>().is_ok());
    format!("{option} {}", given.unwrap_or("2"))
}

/// Whether `text` (a goal) gives `option` a value: where it names it, the
/// word after it is a number, a placeholder in capitals (`--times N`) or in
/// angle brackets (`--times <n>`); or, unless the goal calls it a flag
/// there, the goal speaks of a value by a one-letter placeholder elsewhere
/// ("Add a -n option to head.py so that it prints the first N lines": t25's
/// plan called -n a flag, `'-n' in sys.argv[1:]`, and the model read
/// `int(sys.argv[2])`). A flag (`--shout`) takes none.
pub fn takes_value(text: &str, option: &str) -> bool {
    let words: Vec<&str> = tokens(text).filter(|word| !word.is_empty()).collect();
    // In capitals, but for the words "A" and "I".
    let placeholder = |word: &str| {
        word.chars().any(|c| c.is_ascii_uppercase())
            && word
                .chars()
                .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_')
            && !["A", "I"].contains(&word)
    };
    let mut named = false;
    for (at, _) in words
        .iter()
        .enumerate()
        .filter(|(_, word)| **word == option)
    {
        named = true;
        let Some(next) = words.get(at + 1) else {
            continue;
        };
        if ["flag", "switch"].contains(&next.to_lowercase().as_str()) {
            return false;
        }
        if placeholder(next)
            || next.parse::<f64>().is_ok()
            || (next.starts_with('<') && next.ends_with('>'))
        {
            return true;
        }
    }
    // In a sentence that names the option: "A" or "X" elsewhere in the
    // goal may be anything.
    named
        && sentences(text).any(|sentence| {
            let words: Vec<&str> = tokens(sentence).collect();
            let lower: Vec<String> = words.iter().map(|w| w.to_lowercase()).collect();
            // "an option whose value is ...", "takes a value": t36's
            // join-sep, "a --sep option whose value is the text put
            // between them", was written as a flag.
            let valued = lower.windows(3).any(|w| {
                w[2] == "value"
                    && (["whose", "its"].contains(&w[1].as_str())
                        || (w[1] == "a"
                            && ["takes", "take", "with", "needs"].contains(&w[0].as_str())))
            });
            words.contains(&option)
                && (valued
                    || words
                        .iter()
                        .any(|word| word.len() == 1 && placeholder(word)))
        })
}

/// The sentences of `text`: parts ended by `. `, `;` or a line's end.
fn sentences(text: &str) -> impl Iterator<Item = &str> {
    text.split(['\n', ';']).flat_map(|part| part.split(". "))
}

/// The command-line options a requirement names (`--shout`, `-n`).
fn options(text: &str) -> impl Iterator<Item = &str> {
    tokens(text).filter(|word| {
        let name = word.trim_start_matches('-');
        (1..=2).contains(&(word.len() - name.len()))
            && name.starts_with(|c: char| c.is_ascii_alphabetic())
            && name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
    })
}

/// The words of a text as a person types them on a command line or names
/// a file: split at spaces, quotes, brackets and commas, with a sentence's
/// final punctuation dropped (`--shout`, `test_calc.py`).
fn tokens(text: &str) -> impl Iterator<Item = &str> {
    text.split(|c: char| c.is_whitespace() || matches!(c, '`' | '"' | '\'' | '(' | ')' | ','))
        .map(|word| word.trim_end_matches(['.', ':', ';', '!', '?']))
}

/// Whether `text` holds `part` where neither runs on into a letter or
/// digit of the text around it: `01010` does not hold `1010` (t76's binary
/// assessment called it met), `Hi, Ann!` holds `Hi`.
fn bounded(text: &str, part: &str) -> bool {
    let alnum = |c: Option<char>| c.is_some_and(char::is_alphanumeric);
    let starts = alnum(part.chars().next());
    let ends = alnum(part.chars().next_back());
    text.match_indices(part).any(|(at, _)| {
        let runs_in = starts && alnum(text[..at].chars().next_back());
        let runs_on = ends && alnum(text[at + part.len()..].chars().next());
        !runs_in && !runs_on
    })
}

/// Text with its runs of whitespace made one space.
fn words(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

pub(crate) fn cut(text: &str, max: usize) -> String {
    match text.char_indices().nth(max) {
        Some((at, _)) => format!("{}…", &text[..at]),
        None => text.to_string(),
    }
}

#[cfg(test)]
pub(crate) mod tests {
    #[test]
    fn a_requirement_is_about_tests_by_the_model_word_only_when_the_goal_asks_for_tests() {
        let requirement = || Requirement {
            requirement: "Add a function count_vowels(text) to textutil.py".into(),
            met: true,
            evidence: "def count_vowels(text): ...".into(),
            about_tests: true,
            about_output: false,
            shown_by: None,
            file: None,
        };
        // No test ran: held to tests, it would be unmet.
        let held =
            |speaks| hold_to_tests(not_about_tests(speaks, vec![requirement()]), &[]).remove(0);
        let code = held(false);
        assert!(code.met && !code.about_tests, "{code:?}");
        let tests = held(true);
        assert!(!tests.met && tests.about_tests, "{tests:?}");
    }

    #[test]
    fn the_files_a_failed_command_names_that_are_not_there() {
        let exists = |path: &str| path == "word_count.py";
        assert_eq!(
            absent("python3 word_count.py test.txt -n 3.5 'my file.md'", exists),
            ["test.txt", "my file.md"]
        );
        assert!(absent("python3 -m pytest -q", exists).is_empty());
    }

    #[test]
    fn a_stated_output_holds_in_its_words_and_their_case() {
        let stated = |a: &str, b: &str| StatedOutput {
            command: "python3 greet.py --shout".into(),
            prints: vec![a.into(), b.into()],
            was: "Hello, world!".into(),
            quoted: false,
            changes: false,
        };
        assert_eq!(
            stated("HELLO, WORLD!", "HELLO WORLD").agreed(),
            Some("HELLO, WORLD!")
        );
        assert_eq!(stated("HELLO, WORLD!", "HELLO, world!").agreed(), None);
        assert_eq!(stated("!", "?").agreed(), None);
        // An answer that says what the program printed before, without
        // the option, is no answer, and the other one alone is no
        // agreement: a third is asked.
        assert_eq!(stated("Hello, world!", "HELLO, WORLD!").agreed(), None);
        assert!(!stated("Hello, world!", "HELLO, WORLD!").settled());
        assert_eq!(
            stated("Hello, world!", "HELLO, WORLD!").readings(),
            ["HELLO, WORLD!"]
        );
        assert_eq!(stated("Hello, world!", "Hello,  world!").agreed(), None);
        // A third answer: two of three agreeing.
        let three = |c: &str| StatedOutput {
            prints: vec!["HELLO, WORLD!".into(), "HELLO, world!".into(), c.into()],
            ..stated("", "")
        };
        assert!(!stated("HELLO, WORLD!", "HELLO, world!").settled());
        assert_eq!(three("HELLO WORLD").agreed(), Some("HELLO, WORLD!"));
        assert_eq!(three("HELLO world").agreed(), Some("HELLO, world!"));
        assert_eq!(three("Hi").agreed(), None);
        assert!(three("Hi").settled());
        assert_eq!(three("Hi").readings().len(), 3);
        let lone = StatedOutput {
            prints: vec!["Hello, world!".into(), "".into(), "HI".into()],
            ..stated("", "")
        };
        assert_eq!(lone.agreed(), None);
        assert!(lone.settled());
        let runs = |printed: Option<&str>| {
            vec![(
                "python3 greet.py --shout".to_string(),
                printed.map(str::to_string),
            )]
        };
        let held = |printed| {
            hold_to_stated(
                Vec::new(),
                &[stated("HELLO, WORLD!", "HELLO, WORLD!")],
                &runs(printed),
            )
        };
        let wrong = held(Some("HELLO, world!\n"));
        assert_eq!(wrong.len(), 1);
        assert!(!wrong[0].met);
        assert_eq!(
            wrong[0].requirement,
            "`python3 greet.py --shout` prints \"HELLO, WORLD!\", as the goal's words say"
        );
        assert!(held(Some("HELLO WORLD\n"))[0].met);
        assert!(!held(None)[0].met);
        // Not run (a stop): nothing said.
        assert!(hold_to_stated(Vec::new(), &[stated("A", "A")], &[]).is_empty());
        // Its words, not a part of one: `13` is not said by `213`.
        let count = |printed: &str| {
            hold_to_stated(
                Vec::new(),
                &[StatedOutput {
                    command: "python3 count.py --chars".into(),
                    prints: vec!["13".into(), "13".into()],
                    was: "3".into(),
                    quoted: false,
                    changes: false,
                }],
                &[("python3 count.py --chars".into(), Some(printed.into()))],
            )[0]
            .met
        };
        assert!(count("13\n"));
        assert!(count("chars: 13\n"));
        assert!(!count("213\n"));
        // Three answers that disagree: held to any of them, with no text
        // to aim a cycle at.
        let apart = StatedOutput {
            command: "python3 count.py --chars".into(),
            prints: vec!["13".into(), "4".into(), "216".into()],
            was: "3".into(),
            quoted: false,
            changes: false,
        };
        let read = |printed: &str| {
            hold_to_stated(
                Vec::new(),
                std::slice::from_ref(&apart),
                &[("python3 count.py --chars".into(), Some(printed.into()))],
            )
            .remove(0)
        };
        let unforeseen = read("14\n");
        assert!(!unforeseen.met);
        assert_eq!(
            unforeseen.requirement,
            "`python3 count.py --chars` prints what the goal's words say"
        );
        assert!(unforeseen.evidence.contains("no reading"), "{unforeseen:?}");
        assert_eq!(unforeseen.to_redo(), None);
        assert!(read("4\n").met);
        // The assessment's own text for the command, which no reading
        // gave, is held as the readings are; one a reading gave stays.
        let own = |expects: &str, met: bool| Requirement {
            requirement: "--chars prints the number of characters".into(),
            met,
            evidence: String::new(),
            about_tests: false,
            about_output: true,
            shown_by: Some(ShownBy {
                command: "python3 count.py  --chars".into(),
                expects: expects.into(),
            }),
            file: None,
        };
        let held = |requirement: Requirement, printed: &str| {
            hold_to_stated(
                vec![requirement],
                std::slice::from_ref(&apart),
                &[("python3 count.py --chars".into(), Some(printed.into()))],
            )
            .remove(0)
        };
        let foreseen = held(own("13 characters", false), "4\n");
        assert!(foreseen.met, "{foreseen:?}");
        assert_eq!(foreseen.shown_by.as_ref().unwrap().expects, "");
        assert!(!held(own("14", true), "14\n").met);
        let given = held(own("4", false), "4\n");
        assert!(!given.met, "a reading's text is the assessment's to judge");
        assert_eq!(given.shown_by.as_ref().unwrap().expects, "4");
        // Every answer dropped: nothing held.
        let dropped = StatedOutput {
            prints: vec!["3".into(), "".into(), "3".into()],
            ..apart.clone()
        };
        assert!(
            hold_to_stated(
                Vec::new(),
                &[dropped],
                &[("python3 count.py --chars".into(), Some("3".into()))]
            )
            .is_empty()
        );
    }

    #[test]
    fn a_requirement_shown_by_a_stated_command_is_held_to_the_stated_text() {
        let stated = [StatedOutput {
            command: "python3 greet.py --shout".into(),
            prints: vec!["HELLO, WORLD!".into(), "HELLO WORLD".into()],
            was: "Hello, world!".into(),
            quoted: false,
            changes: false,
        }];
        let shown = |command: &str, expects: &str| Requirement {
            requirement: "it takes an optional --shout flag".into(),
            met: true,
            evidence: String::new(),
            about_tests: false,
            about_output: true,
            shown_by: Some(ShownBy {
                command: command.into(),
                expects: expects.into(),
            }),
            file: None,
        };
        let held = to_stated(
            vec![
                shown("python3  greet.py --shout", "HELLO, world!"),
                shown("python3 greet.py", "Hello, world!"),
            ],
            &stated,
        );
        let expects = |r: &Requirement| r.shown_by.clone().unwrap().expects;
        assert_eq!(expects(&held[0]), "HELLO, WORLD!");
        assert_eq!(expects(&held[1]), "Hello, world!");
        // Answers that do not agree change nothing.
        let unsure = [StatedOutput {
            prints: vec!["HELLO, WORLD!".into(), "HI".into(), "YO".into()],
            ..stated[0].clone()
        }];
        let kept = to_stated(
            vec![shown("python3 greet.py --shout", "HELLO, world!")],
            &unsure,
        );
        assert_eq!(expects(&kept[0]), "HELLO, world!");
    }

    #[test]
    fn an_option_takes_a_value_when_the_goal_gives_it_one() {
        let flag = "Change greet.py so that it takes an optional --shout flag";
        assert!(!takes_value(flag, "--shout"));
        assert!(takes_value(
            "Add a --times N option to repeat.py",
            "--times"
        ));
        assert!(takes_value("Add `--times 3` to repeat.py", "--times"));
        assert!(takes_value("Add --times <n> to repeat.py", "--times"));
        assert!(!takes_value("Add --verbose. It prints more", "--verbose"));
        assert!(!takes_value("Add --verbose", "--verbose"));
        // A value the goal speaks of by a placeholder elsewhere, or gives
        // the option in an example; never one it calls a flag.
        let head = "Add a -n option to head.py so that it prints the first N lines of the file";
        assert!(takes_value(head, "-n"));
        assert_eq!(with_value(head, "-n"), "-n 2");
        assert!(takes_value(
            "Add -n to head.py: `head.py -n 3 a.txt` prints 3 lines",
            "-n"
        ));
        assert!(!takes_value("Add a -v flag that prints N", "-v"));
        // A value the goal names as one (t36's join-sep).
        let sep = "join.py joins its arguments with spaces. Add a --sep option whose value is the \
                   text put between them instead";
        assert!(takes_value(sep, "--sep"));
        assert!(takes_value(
            "Let tool.py take --out, which takes a value",
            "--out"
        ));
        assert!(!takes_value(
            "Add a --total option that prints the total value",
            "--total"
        ));
        assert!(!takes_value(
            "Add a --sep flag whose value is a comma",
            "--sep"
        ));
        assert!(
            !takes_value("Add a -q option to tool.py. Section B says why", "-q"),
            "a capital letter in another sentence"
        );
        assert!(!takes_value("Add --shout. I want A to be loud", "--shout"));
        assert!(
            !takes_value("Print the first N lines", "-n"),
            "the option is not named"
        );
        // A run passes it with a value: the goal's number, else 2.
        assert_eq!(with_value(flag, "--shout"), "--shout");
        assert_eq!(
            with_value("Add a --times N option to repeat.py", "--times"),
            "--times 2"
        );
        assert_eq!(
            with_value("Add `--times 3` to repeat.py", "--times"),
            "--times 3"
        );
        assert_eq!(
            with_value("Add --times <n> to repeat.py", "--times"),
            "--times 2"
        );
    }

    #[test]
    fn an_expectation_holds_as_given_unquoted_or_by_a_text_quoted_in_it() {
        assert_eq!(
            holds("Hello, World!\n", "Hello,  World!"),
            Ok("Hello,  World!")
        );
        assert_eq!(holds("5\n", "'5'"), Ok("5"));
        assert_eq!(
            holds(
                "No file path provided\n",
                "The output should be 'No file path provided'."
            ),
            Ok("No file path provided")
        );
        assert_eq!(
            holds("HELLO, ANN!", "The program's output is \"HELLO, ANN!\"."),
            Ok("HELLO, ANN!")
        );
        // A description with nothing quoted, and a quote not printed.
        assert!(holds("5", "The output should be the number of words in the file.").is_err());
        assert!(holds("Hello, Ann!", "It should print 'HELLO, ANN!'").is_err());
        // In a literal output, a quoted part is not the output.
        assert!(holds("Computer chose rock", "You chose 'rock'").is_err());
        // Lines of several are a sequence: one printed again is not it.
        let twice = "Welcome, a!\nWelcome, a!\nWelcome, b!\nWelcome, c!\n";
        assert_eq!(
            holds(twice, "Welcome, a!\nWelcome, b!\nWelcome,"),
            Err("printed \"Welcome, a!\" 2 times, where the lines expected have it once".into())
        );
        assert_eq!(
            holds(&twice[12..], "Welcome, a!\nWelcome, b!\nWelcome,"),
            Ok("Welcome, a!\nWelcome, b!\nWelcome,")
        );
        // More lines than those expected, none of them again, still hold;
        // so does a line of one printed more than once.
        assert!(
            holds(
                "Guests:\nWelcome, a!\nWelcome, b!\n",
                "Welcome, a!\nWelcome, b!"
            )
            .is_ok()
        );
        assert!(holds("Hi\nHi\n", "Hi").is_ok());
        // Not inside a longer word or number.
        assert!(holds("01010\n", "1010").is_err());
        assert!(holds("10100\n", "1010").is_err());
        assert!(holds("Hi, Ann!\n", "Hi").is_ok());
        assert!(holds("Total: 12.5\n", "12.5").is_ok());
        assert!(holds("Welcome, Annabel!\n", "Welcome, Ann").is_err());
        assert!(holds("Hi\nHi\n", "Hi\nHi").is_ok());
        // The words that differ, when the rest is the same.
        assert_eq!(
            holds("HELLO, world!\n", "HELLO, WORLD!"),
            Err(
                "printed \"HELLO, world!\", which does not hold \"HELLO, WORLD!\": it printed \
                 world where WORLD must be: all of the line must be in capitals, what the program \
                 puts in from a value as well as its own words"
                    .into()
            )
        );
        assert_eq!(
            difference("3 words in 1 line", "'13 chars in 1 line'").as_deref(),
            Some("it printed 3 where 13 must be, and words where chars must be")
        );
        // Case alone, when what must be printed is not all in one case, is
        // not said.
        assert_eq!(
            difference("hello, World!", "Hello, World!").as_deref(),
            Some("it printed hello where Hello must be")
        );
        assert_eq!(
            difference("Hello, WORLD, bye", "hello, world, bye").as_deref(),
            Some(
                "it printed Hello where hello must be, and WORLD where world must be: all of the \
                 line must be in small letters, what the program puts in from a value as well as \
                 its own words"
            )
        );
        // Nothing shared, another count of words, or the same words.
        assert_eq!(difference("Hi", "Bye"), None);
        assert_eq!(difference("3 words", "13 chars"), None);
        assert_eq!(difference("Hello, world!", "HELLO"), None);
        assert_eq!(difference("Hello world", "Hello, world!"), None);
        assert_eq!(quoted("it's 'a' and \"b c\", (`d`)"), ["a", "b c", "d"]);
        assert!(describes(
            "The output should be the number of words in the file."
        ));
        assert!(!describes(
            "The output should be 'No file path provided' and nothing else"
        ));
        assert!(!describes("Hello, World!"));
        let mut described = output(
            "it prints the number of words",
            "python3 wc.py a.txt",
            "The output should be the number of words in the file.",
        );
        assert_eq!(
            shown(&mut described, &[printed("python3 wc.py a.txt", 0, "5\n")]),
            Err(
                "`python3 wc.py a.txt` printed \"5\"; the text it must print was described, not \
                 given (\"The output should be the number of words in the file.\"): say what it \
                 prints"
                    .into()
            )
        );
        assert!(quoted("the program's user's name").is_empty());
    }

    use super::*;
    use pretty_assertions::assert_eq;

    fn run(command: &str, exit_code: Option<i32>, tests: Option<(u32, u32)>) -> CheckRun {
        CheckRun {
            command: command.into(),
            exit_code,
            output: String::new(),
            tests: tests.map(|(passed, failed)| Tally { passed, failed }),
            wants_arguments: false,
        }
    }

    /// t60's calc-fix: an assessor that calls the project's own tests
    /// unmet beside a check where they all passed.
    #[test]
    fn a_requirement_naming_tests_a_passing_check_ran_is_met() {
        let tests = vec![(
            "test_calc.py".to_string(),
            vec!["test_add".to_string(), "test_average".to_string()],
        )];
        let mut unmet = req("The test `test_add()` should pass.", false, true);
        unmet.evidence =
            "The program printed nothing when it was run with `python3 calc.py`.".into();
        let met = |checks: &[CheckRun], r: &Requirement| {
            met_by_named_tests(vec![r.clone()], checks, &tests, |w| w.starts_with("test_"))
                .remove(0)
        };
        let passed = [
            run("python3 calc.py", Some(0), None),
            run("python3 -m pytest -q", Some(0), Some((3, 0))),
        ];
        let held = met(&passed, &unmet);
        assert!(
            held.met && held.about_tests && held.shown_by.is_none(),
            "{held:?}"
        );
        assert_eq!(
            held.evidence,
            "`python3 -m pytest -q` ran `test_add` and every test passed (3 passed)"
        );
        // A test failed, or none ran: as the model said.
        let failed = [run("python3 -m pytest -q", Some(1), Some((2, 1)))];
        assert!(!met(&failed, &unmet).met);
        assert!(!met(&[run("python3 calc.py", Some(0), None)], &unmet).met);
        // A check that ran other test files did not run it.
        let other = [run(
            "python3 -m pytest -q test_other.py",
            Some(0),
            Some((1, 0)),
        )];
        assert!(!met(&other, &unmet).met);
        let own = [run(
            "python3 -m pytest -q test_calc.py",
            Some(0),
            Some((3, 0)),
        )];
        assert!(met(&own, &unmet).met);
        let folder = [run("python3 -m pytest -q tests/", Some(0), Some((1, 0)))];
        assert!(!met(&folder, &unmet).met);
        // A test no file defines, even beside one that is: as the model said.
        let unknown = req("`test_add` and `test_negative` pass", false, true);
        assert!(!met(&passed, &unknown).met);
        // What a test must check, not that it passes: as the model said.
        let content = req("`test_add` checks negative numbers", false, true);
        assert!(!met(&passed, &content).met);
        // No test named: as the model said.
        let unnamed = req("Tests for average are added", false, true);
        assert!(!met(&passed, &unnamed).met);
    }

    /// t60's calc-fix: the goal's "The tests in test_calc.py fail." listed
    /// as unmet beside the tests that passed.
    #[test]
    fn what_the_goal_says_failed_before_the_run_is_no_requirement_once_it_passes() {
        let premise = req("The tests in test_calc.py fail.", false, true);
        let before = [run("python3 -m pytest -q", Some(1), Some((1, 2)))];
        let now = [run("python3 -m pytest -q", Some(0), Some((3, 0)))];
        let goal = "The tests in test_calc.py fail. Fix the bug in calc.py so that they pass";
        let held = failure_described(goal, vec![premise.clone()], &now, &before).remove(0);
        assert!(held.met, "{held:?}");
        assert_eq!(
            held.evidence,
            "what the goal says of the project before the run: `python3 -m pytest -q` failed \
             then, and its tests pass now (3 passed)"
        );
        // Tests that still fail, tests that passed before too, or a
        // requirement that they pass: as the model said.
        let failing = [run("python3 -m pytest -q", Some(1), Some((2, 1)))];
        assert!(!failure_described(goal, vec![premise.clone()], &failing, &before)[0].met);
        let passed_before = [run("python3 -m pytest -q", Some(0), Some((3, 0)))];
        assert!(!failure_described(goal, vec![premise.clone()], &now, &passed_before)[0].met);
        assert!(!failure_described(goal, vec![premise.clone()], &now, &[])[0].met);
        // Words that are not the goal's, or a failure that is no verb.
        assert!(!failure_described("Fix calc.py", vec![premise], &now, &before)[0].met);
        let cases = req("add tests for the failure cases", false, true);
        let asked = "The tests fail. Fix it and add tests for the failure cases";
        assert!(!failure_described(asked, vec![cases], &now, &before)[0].met);
        let pass = req(
            "Fix the failing average so that the tests pass",
            false,
            true,
        );
        assert!(!failure_described(goal, vec![pass], &now, &before)[0].met);
        let code = req("average no longer fails on one number", false, false);
        assert!(!failure_described(goal, vec![code], &now, &before)[0].met);
    }

    #[test]
    fn evidence_that_copies_the_question_is_asked_again() {
        let question = [
            "Before the run the project's tests failed: what the GOAL says was wrong then (a \
             test that failed, an error it reported) describes the project as it was.",
            "The project's tests run with: `python3 -m pytest -q`",
        ];
        let mut copied = req("Fix the bug in calc.py so that they pass", false, true);
        copied.evidence = "Before the run the project's tests failed: what the GOAL says was \
                           wrong then"
            .into();
        let why = copied_evidence(std::slice::from_ref(&copied), &question).expect("copied");
        assert!(why.contains("copies the question's own words"), "{why}");
        copied.evidence = "The project's tests run with: `python3 -m pytest -q`".into();
        assert!(copied_evidence(std::slice::from_ref(&copied), &question).is_some());
        // A line of a check, or a met requirement: as it is.
        copied.evidence = "test_calc.py:9: assert 3.0 == 4".into();
        assert_eq!(
            copied_evidence(std::slice::from_ref(&copied), &question),
            None
        );
        let mut met = req("the tests pass", true, true);
        met.evidence = "The project's tests run with: `python3 -m pytest -q`".into();
        assert_eq!(copied_evidence(&[met], &question), None);
    }

    /// Evidence of a met requirement that quotes a line of code no file
    /// and no check holds cannot be used; quoted as it is, it can.
    #[test]
    fn evidence_that_quotes_code_nothing_holds_is_asked_again() {
        let file = quoted_form("def main(argv):\n    print(f\"Welcome, {argv[0]}!\")\n");
        let holds = |line: &str| file.contains(&quoted_form(line));
        let mut invented = req("it welcomes every name", true, false);
        invented.evidence = "The welcome.py file now contains the following lines:\ndef main(argv):\n    for name in argv[1:]:\n        if".into();
        let why = invented_evidence(std::slice::from_ref(&invented), holds).expect("invented");
        assert!(why.contains("quotes `for name in argv[1:]:`"), "{why}");
        // Unmet, it asks nothing.
        let unmet = Requirement {
            met: false,
            ..invented.clone()
        };
        assert_eq!(invented_evidence(&[unmet], holds), None);
        // Quoted as the file holds it (other quotes and spacing aside).
        let mut quoted = invented.clone();
        quoted.evidence =
            "welcome.py holds:\ndef main( argv ):\n    print(f'Welcome, {argv[0]}!')".into();
        assert_eq!(invented_evidence(&[quoted], holds), None);
        // Prose on one line is no quote.
        let mut prose = invented;
        prose.evidence = "it loops: for name in argv[1:]".into();
        assert_eq!(invented_evidence(&[prose], holds), None);
    }

    /// A run with no arguments meets nothing of a goal that gives its
    /// program some, unless the program is shown run with some too.
    #[test]
    fn a_bare_run_meets_nothing_of_a_goal_that_gives_arguments() {
        let program = |word: &str| (word == "welcome.py").then(|| "python3 welcome.py".to_string());
        let bare = output(
            "welcomes every name",
            "python3 welcome.py",
            "Welcome, welcome.py!",
        );
        let held = bare_runs_unmet(vec![bare.clone()], true, program);
        assert!(!held[0].met);
        assert!(
            held[0]
                .evidence
                .contains("`python3 welcome.py` gives welcome.py no arguments"),
            "{}",
            held[0].evidence
        );
        // Words that give no arguments, or another program: as it was.
        assert_eq!(
            bare_runs_unmet(vec![bare.clone()], false, program),
            vec![bare.clone()]
        );
        assert_eq!(
            bare_runs_unmet(vec![bare.clone()], true, |_| None),
            vec![bare.clone()]
        );
        // A command that does not run it (`ls -l welcome.py`): as it was.
        let listed = output("welcome.py is there", "ls -l welcome.py", "welcome.py");
        assert_eq!(
            bare_runs_unmet(vec![listed.clone()], true, program),
            vec![listed]
        );
        // A run with names shows it.
        let named = output(
            "welcomes every name",
            "python3 welcome.py Ann Bob",
            "Welcome, Ann!",
        );
        assert_eq!(
            bare_runs_unmet(vec![named.clone()], true, program),
            vec![named.clone()]
        );
        // What it does with none, beside a run with some, is a case of its own.
        let both = vec![named.clone(), bare.clone()];
        assert_eq!(bare_runs_unmet(both.clone(), true, program), both);
        // The tests' run is no run of the program.
        let tests = output("tests pass", "python3 -m pytest -q", "passed");
        assert_eq!(
            bare_runs_unmet(vec![tests.clone()], true, program),
            vec![tests]
        );
    }

    fn req(text: &str, met: bool, about_tests: bool) -> Requirement {
        Requirement {
            requirement: text.into(),
            met,
            evidence: "seen".into(),
            about_tests,
            about_output: false,
            shown_by: None,
            file: None,
        }
    }

    fn output(text: &str, command: &str, expects: &str) -> Requirement {
        Requirement {
            about_output: true,
            shown_by: Some(ShownBy {
                command: command.into(),
                expects: expects.into(),
            }),
            ..req(text, true, false)
        }
    }

    /// A run of `command` that ended with `exit_code` and printed `printed`.
    pub(crate) fn printed(command: &str, exit_code: i32, printed: &str) -> Shown {
        Shown {
            command: command.into(),
            exit_code: Some(exit_code),
            printed: printed.into(),
            not_run: None,
            absent: Vec::new(),
        }
    }

    #[test]
    fn the_runs_a_goal_quotes_are_its_programs_with_words_after_them() {
        let run_of = |word: &str| {
            (word.ends_with(".py") && !word.starts_with("test_")).then(|| format!("python3 {word}"))
        };
        let is_file = |word: &str| word == "bills.txt";
        let runs = |goal: &str| goal_runs(goal, run_of, is_file);
        assert_eq!(
            runs(
                "Let it take the rate as a second argument, so that `python fee.py 100 7` prints \
                 7.00; `python3 fee.py 100  7` too, and `fee.py 20 'a b'`."
            ),
            ["python3 fee.py 100 7", "python3 fee.py 20 'a b'"]
        );
        // No words after it, an option, a file it reads, the shell's
        // words, a test, or no program of the project: none.
        for goal in [
            "`python fee.py` prints 5.00",
            "`python fee.py --rate 7 100` prints 7.00",
            "`python fee.py bills.txt` prints 12.00",
            "`python fee.py other.csv` prints 12.00",
            "`python fee.py 100 | head` prints 5.00",
            "`python3 test_fee.py 1` passes",
            "`python3 -m pytest -q` passes",
            "`cargo run 100` prints 5.00",
            "python fee.py 100 7 prints 7.00",
        ] {
            assert!(runs(goal).is_empty(), "{goal}: {:?}", runs(goal));
        }
        assert_eq!(
            named_program("Write binary.py: it prints 10 as 1010.", run_of),
            Some(("binary.py".to_string(), "python3 binary.py".to_string()))
        );
        assert_eq!(named_program("Fix the tests in test_fee.py", run_of), None);
    }

    /// The names a goal calls packages, and a module made in a package's
    /// place held unmet.
    #[test]
    fn a_module_made_where_a_package_was_asked_is_not_met() {
        assert_eq!(
            package_names("Make a Python package wordplay with is_anagram(a, b)"),
            ["wordplay", "Python"]
        );
        assert_eq!(
            package_names("Create a Python package named series with fib(n)"),
            ["series", "Python"]
        );
        assert_eq!(
            package_names("Create a mathx package with add"),
            ["with", "mathx"]
        );
        assert!(package_names("Write fizzbuzz.py with tests").is_empty());
        let module = |name: &str| {
            (name == "wordplay").then(|| ("wordplay.py".into(), "wordplay/__init__.py".into()))
        };
        let held = hold_to_packages("Make a Python package wordplay", Vec::new(), module);
        assert_eq!(held.len(), 1);
        assert!(!held[0].met);
        assert!(
            held[0].evidence.contains("wordplay.py is a module")
                && held[0]
                    .evidence
                    .contains("wordplay/__init__.py holds the code of wordplay.py itself"),
            "{held:?}"
        );
        assert_eq!(held[0].file.as_deref(), Some("wordplay/__init__.py"));
        let none = hold_to_packages("Make a Python package wordplay", Vec::new(), |_| None);
        assert!(none.is_empty());
    }

    /// Examples that print what they printed before show no change; one
    /// held to another text, or a run with an option, does.
    #[test]
    fn examples_left_as_they_were_show_no_change() {
        let run = |command: &str, prints: &str, was: &str| StatedOutput {
            command: command.into(),
            prints: vec![prints.into(), prints.into()],
            was: was.into(),
            quoted: true,
            changes: false,
        };
        let john = run("python3 w.py John", "Welcome, John!", "Welcome, John!");
        let jane = run("python3 w.py Jane", "Welcome, Jane!", "Welcome, Jane!");
        assert!(shows_no_change(&[john.clone(), jane.clone()]));
        // A shorter run (nothing before) neither shows nor hides a change.
        let shorter = run("python3 w.py", "Welcome!", "");
        assert!(shows_no_change(&[john.clone(), shorter]));
        let tip = run("python3 tip.py 40 20", "8.00", "6.00");
        assert!(!shows_no_change(&[john.clone(), tip]));
        let mut flag = run("python3 w.py --shout Ann", "WELCOME, ANN!", "Welcome, Ann!");
        flag.quoted = false;
        assert!(!shows_no_change(&[john.clone(), flag]));
        // Nothing held at all shows nothing either way.
        assert!(!shows_no_change(&[]));
        let mut unsure = john.clone();
        unsure.prints = vec!["Welcome, John!".into(), "Hi".into()];
        assert!(!shows_no_change(&[unsure]));
    }

    /// A run held to change is met by any other output, not by the one it
    /// printed before nor by a failure.
    #[test]
    fn a_run_held_to_change_is_met_by_another_output_only() {
        let changed = StatedOutput {
            command: "python3 w.py Ann Bob".into(),
            prints: Vec::new(),
            was: "Welcome, Ann!".into(),
            quoted: true,
            changes: true,
        };
        let held = |printed: Option<&str>| {
            let runs = [(changed.command.clone(), printed.map(str::to_string))];
            let requirements = hold_to_stated(Vec::new(), std::slice::from_ref(&changed), &runs);
            assert_eq!(requirements.len(), 1, "{requirements:?}");
            assert!(requirements[0].requirement.contains("something else than"));
            requirements[0].met
        };
        assert!(!held(Some("Welcome, Ann!\n")));
        assert!(!held(None));
        assert!(held(Some("Welcome, Ann!\nWelcome, Bob!\n")));
    }

    /// A run whose arguments are what another run of the program is held
    /// to print is the goal's output read as an input: dropped, unless the
    /// two print each other's arguments.
    #[test]
    fn a_run_of_what_another_run_prints_is_not_held() {
        let run = |command: &str, prints: &str| StatedOutput {
            command: command.into(),
            prints: vec![prints.into(), prints.into()],
            was: String::new(),
            quoted: true,
            changes: false,
        };
        let kept = |outputs: Vec<StatedOutput>| -> Vec<String> {
            without_outputs_read_as_inputs(outputs)
                .into_iter()
                .map(|o| o.command)
                .collect()
        };
        let binary = vec![
            run("python3 binary.py 10", "1010"),
            run("python3 binary.py 1010", "1010"),
        ];
        assert_eq!(kept(binary), ["python3 binary.py 10"]);
        let reverse = vec![
            run("python3 rev.py abc", "cba"),
            run("python3 rev.py cba", "abc"),
        ];
        assert_eq!(
            kept(reverse.clone()),
            ["python3 rev.py abc", "python3 rev.py cba"]
        );
        // Another program's output is no input of this one.
        let two = vec![
            run("python3 a.py 10", "1010"),
            run("python3 b.py 1010", "1"),
        ];
        assert_eq!(kept(two).len(), 2);
        // A run held to nothing agreed is not read off.
        let mut unsure = run("python3 binary.py 10", "1010");
        unsure.prints = vec!["1010".into(), "10".into()];
        let outputs = vec![unsure, run("python3 binary.py 1010", "1010")];
        assert_eq!(kept(outputs).len(), 2);
    }

    #[test]
    fn a_quoted_run_is_held_only_to_what_two_answers_agree_on() {
        let quoted = |prints: &[&str]| StatedOutput {
            command: "python3 fee.py 100 7".into(),
            prints: prints.iter().map(|p| p.to_string()).collect(),
            was: "5.00".into(),
            quoted: true,
            changes: false,
        };
        let printed = [(
            "python3 fee.py 100 7".to_string(),
            Some("5.00\n".to_string()),
        )];
        let held = hold_to_stated(Vec::new(), &[quoted(&["7.00", "7.00"])], &printed);
        assert_eq!(held.len(), 1);
        assert!(!held[0].met);
        assert_eq!(
            held[0].requirement,
            "`python3 fee.py 100 7` prints \"7.00\", as the goal's words say"
        );
        // What it printed before, said twice (asked again, see
        // `outputs::again_prompt`): the goal leaves it as it was.
        let same = hold_to_stated(Vec::new(), &[quoted(&["5.00", "5.00"])], &printed);
        assert_eq!(same.len(), 1);
        assert!(same[0].met);
        let failed = [("python3 fee.py 100 7".to_string(), None)];
        let same = hold_to_stated(Vec::new(), &[quoted(&["5.00", "5.00"])], &failed);
        assert!(!same[0].met);
        // Three that disagree: the goal may not say what it prints.
        let apart = quoted(&["7.00", "7.5", "0.07"]);
        assert!(hold_to_stated(Vec::new(), std::slice::from_ref(&apart), &printed).is_empty());
        // An option's run is held all the same (see above).
        let option = StatedOutput {
            quoted: false,
            changes: false,
            ..apart
        };
        assert_eq!(hold_to_stated(Vec::new(), &[option], &printed).len(), 1);
    }

    #[test]
    fn a_requirement_keeps_the_text_it_was_held_to_while_the_output_does_not_hold_it() {
        let text = "It takes the percentage as a second argument, so that `python tip.py 40 20` \
                    prints 8.00.";
        let command = "python3 tip.py 40 20";
        let earlier = [
            output("It prints a 15% tip", "python3 tip.py 40", "6.00"),
            Requirement {
                met: false,
                ..output(text, command, "8.00")
            },
        ];
        let unchanged = [printed(command, 0, "6.00\n")];
        // The next assessment reads the text off the unchanged output.
        let read_off = || vec![output(text, command, "6.00")];
        let held = held_as_before(hold_to_output(read_off(), &unchanged), &earlier, &unchanged);
        assert!(!held[0].met, "{held:?}");
        assert_eq!(held[0].shown_by.as_ref().unwrap().expects, "8.00");
        assert_eq!(
            held[0].evidence,
            "`python3 tip.py 40 20` printed \"6.00\", which does not hold \"8.00\": it printed 6 where 8 \
             must be; the last \
             assessment held this requirement to \"8.00\", and the program's output has not \
             come to hold it"
        );
        // Once the output holds the earlier text, the new one judges.
        let fixed = [printed(command, 0, "8.00\n")];
        let met = vec![output(text, command, "8.00")];
        assert!(held_as_before(hold_to_output(met, &fixed), &earlier, &fixed)[0].met);
        let odd = held_as_before(hold_to_output(read_off(), &fixed), &earlier, &fixed);
        assert!(!odd[0].met, "{odd:?}");
        // Another requirement shown by the same command, one the last
        // assessment found met, or one shown by another command, is not
        // held to it.
        let other = vec![output(
            "It prints the tip with two decimals",
            command,
            "6.00",
        )];
        assert!(held_as_before(hold_to_output(other, &unchanged), &earlier, &unchanged)[0].met);
        let was_met = [output(text, command, "8.00")];
        assert!(
            held_as_before(hold_to_output(read_off(), &unchanged), &was_met, &unchanged)[0].met
        );
        let elsewhere = [Requirement {
            met: false,
            ..output(text, "python3 tip.py 40", "8.00")
        }];
        assert!(
            held_as_before(
                hold_to_output(read_off(), &unchanged),
                &elsewhere,
                &unchanged
            )[0]
            .met
        );
        // An earlier text that described the output holds nothing.
        let described = [Requirement {
            met: false,
            ..output(
                text,
                command,
                "The output should be the tip for the given percentage.",
            )
        }];
        assert!(
            held_as_before(
                hold_to_output(read_off(), &unchanged),
                &described,
                &unchanged
            )[0]
            .met
        );
    }

    #[test]
    fn output_is_met_only_when_its_command_printed_what_was_expected() {
        let shout = "With --shout the greeting is printed in upper case";
        let runs = [
            printed("python3 greet.py --shout Bob", 0, "Hello, Bob!\n"),
            printed("python3 greet.py  Bob", 0, "Hello,\n  Bob!"),
            printed("python3 crash.py", 1, "Traceback"),
        ];
        let cases = [
            // The program ignores the flag: the claim is not taken.
            (
                output(shout, "python3 greet.py --shout Bob", "HELLO, BOB!"),
                Some(
                    "`python3 greet.py --shout Bob` printed \"Hello, Bob!\", which does not hold \"HELLO, BOB!\"",
                ),
            ),
            // A command that does not pass the flag shows nothing about it.
            (
                output(shout, "python3 greet.py  Bob", "Hello, Bob!"),
                Some("`python3 greet.py  Bob` does not pass --shout"),
            ),
            (
                output("It greets by name", "python3 crash.py", "Hello"),
                Some("`python3 crash.py` failed (exit code 1)"),
            ),
            (
                output("It greets by name", "python3 other.py", "Hello"),
                Some("`python3 other.py` was not run"),
            ),
            (
                output("It greets by name", "python3 greet.py  Bob", " "),
                Some("`python3 greet.py  Bob` was given no output it must print"),
            ),
            (
                output("It greets by name", "", "Hello"),
                Some("no command was given that shows it when it runs"),
            ),
            // Whitespace is not held against it; quotes around the text
            // are not the program's.
            (
                output(
                    "It greets by name",
                    "python3 greet.py  Bob",
                    "\"Hello, Bob!\"",
                ),
                None,
            ),
        ];
        for (requirement, why) in cases {
            let held = hold_to_output(vec![requirement.clone()], &runs).remove(0);
            match why {
                Some(why) => {
                    assert!(!held.met, "{requirement:?}");
                    assert_eq!(held.evidence, why);
                }
                None => {
                    assert!(held.met, "{held:?}");
                    assert_eq!(
                        held.evidence,
                        "`python3 greet.py  Bob` printed \"Hello, Bob!\""
                    );
                }
            }
        }
        // An option printed back, or one that changes nothing.
        let echoed = [printed("python3 greet.py --shout", 0, "HELLO, --SHOUT!")];
        let held = hold_to_output(
            vec![output(shout, "python3 greet.py --shout", "HELLO, --SHOUT!")],
            &echoed,
        );
        assert_eq!(
            held[0].evidence,
            "`python3 greet.py --shout` printed --shout back (\"HELLO, --SHOUT!\"): the program \
             took it for an argument"
        );
        let always = [
            printed("python3 greet.py --shout Ann", 0, "HELLO, ANN!"),
            printed("python3 greet.py Ann", 0, "HELLO, ANN!\n"),
        ];
        let requirement = output(shout, "python3 greet.py --shout Ann", "HELLO, ANN!");
        assert_eq!(
            requirement.to_show_without().as_deref(),
            Some("python3 greet.py Ann")
        );
        let held = hold_to_output(vec![requirement.clone()], &always);
        assert_eq!(
            held[0].evidence,
            "`python3 greet.py --shout Ann` printed the same as `python3 greet.py Ann`: the \
             option changes nothing"
        );
        let works = [
            printed("python3 greet.py --shout Ann", 0, "HELLO, ANN!"),
            printed("python3 greet.py Ann", 0, "Hello, Ann!"),
        ];
        assert!(hold_to_output(vec![requirement.clone()], &works)[0].met);
        let held = hold_to_output(vec![requirement], &works[..1]);
        assert_eq!(
            held[0].evidence,
            "`python3 greet.py Ann` was not run beside it"
        );
        // A command that leaves out only the option is shown by another
        // met requirement's run of the same command with it.
        let plain = output(shout, "python3 greet.py Ann", "Hello, Ann!");
        let with = output(shout, "python3 greet.py --shout Ann", "HELLO, ANN!");
        let held = hold_to_output(vec![plain.clone(), with.clone()], &works);
        assert!(held[0].met, "{held:?}");
        assert_eq!(
            held[0].evidence,
            "shown by `python3 greet.py --shout Ann`: `python3 greet.py --shout Ann` printed \
             \"HELLO, ANN!\""
        );
        // Not by one that fails, nor by another command with it.
        let held = hold_to_output(vec![plain.clone(), with.clone()], &always);
        assert!(!held[0].met, "{held:?}");
        let other = output(shout, "python3 greet.py --shout Bob", "HELLO, BOB!");
        let held = hold_to_output(vec![plain.clone(), other], &runs);
        assert_eq!(
            held[0].evidence,
            "`python3 greet.py Ann` does not pass --shout"
        );
        // Unmet for leaving the option out, it is shown by a met run of
        // the same command with it that came after (the stated runs).
        let held = hold_to_output(vec![plain.clone()], &works);
        assert!(!held[0].met, "{held:?}");
        let later = shown_with_options(vec![held[0].clone(), with.clone()]);
        assert!(later[0].met, "{later:?}");
        assert_eq!(
            later[0].evidence,
            format!("shown by `python3 greet.py --shout Ann`: {}", with.evidence)
        );
        // Not one unmet for anything else, nor by an unmet run.
        let other_why = Requirement {
            evidence: "the code has no --shout".into(),
            ..held[0].clone()
        };
        assert!(!shown_with_options(vec![other_why, with.clone()])[0].met);
        let unmet_with = Requirement {
            met: false,
            ..with.clone()
        };
        assert!(!shown_with_options(vec![held[0].clone(), unmet_with])[0].met);
        // Naming an option makes it about output, whatever the model says.
        let called_a_function = Requirement {
            about_output: false,
            ..output(shout, "python3 greet.py --shout Ann", "HELLO, ANN!")
        };
        assert!(called_a_function.is_about_output());
        let held = hold_to_output(vec![called_a_function], &runs);
        assert!(!held[0].met, "{held:?}");
        assert!(!req("greet.py exists", true, false).is_about_output());
        // Not the options of a test run, in a requirement about tests.
        assert!(!req("`python3 -m pytest -q` passes", true, true).is_about_output());
        // The model's own "not met", and requirements about files, stand.
        let unmet = Requirement {
            met: false,
            ..output(shout, "python3 greet.py  Bob", "Hello")
        };
        let file = req("greet.py exists", true, false);
        assert_eq!(
            hold_to_output(vec![unmet.clone(), file.clone()], &[]),
            vec![unmet, file]
        );
    }

    #[test]
    fn a_requirement_met_by_a_command_that_fails_when_run_is_not_met() {
        // A word-count assessment: "met", shown by a run with an input
        // that was not there.
        let argument = Requirement {
            about_output: false,
            ..output(
                "The script can be executed with a file argument",
                "python3 word_count.py input.txt",
                "The script prints the number of words in the file.",
            )
        };
        assert_eq!(argument.to_show(), None, "not about output");
        assert_eq!(argument.to_try(), Some("python3 word_count.py input.txt"));
        let failed = [printed("python3 word_count.py input.txt", 1, "")];
        let held = hold_to_output(vec![argument.clone()], &failed).remove(0);
        assert!(!held.met, "{held:?}");
        assert_eq!(
            held.evidence,
            "`python3 word_count.py input.txt` failed (exit code 1)"
        );
        let absent = [Shown {
            absent: vec!["input.txt".into()],
            ..failed[0].clone()
        }];
        let held = hold_to_output(vec![argument.clone()], &absent).remove(0);
        assert_eq!(
            held.evidence,
            "`python3 word_count.py input.txt` failed (exit code 1); input.txt is no file of the \
             workspace: write it (a sample it reads) before running it"
        );
        let refused = [Shown {
            not_run: Some("a shell's `<` is not run".into()),
            ..printed("python3 word_count.py input.txt", 0, "")
        }];
        let held = hold_to_output(vec![argument.clone()], &refused).remove(0);
        assert_eq!(
            held.evidence,
            "`python3 word_count.py input.txt` was not run: a shell's `<` is not run"
        );
        // A bare run that fails (a game waiting for input it never gets)
        // shows nothing either way.
        let bare = Requirement {
            shown_by: Some(ShownBy {
                command: "python3 rps.py".into(),
                expects: "Rock, paper or scissors?".into(),
            }),
            ..argument.clone()
        };
        let eof = [printed("python3 rps.py", 1, "")];
        assert_eq!(hold_to_output(vec![bare.clone()], &eof), vec![bare]);
        // It ran and succeeded, or it was not run at all: the claim stands
        // (what it printed is not held against a requirement not about
        // output).
        let passed = [printed("python3 word_count.py input.txt", 0, "4\n")];
        for runs in [&passed[..], &[]] {
            assert_eq!(
                hold_to_output(vec![argument.clone()], runs),
                vec![argument.clone()]
            );
        }
    }

    #[test]
    fn an_option_the_goal_names_and_no_requirement_does_is_added_unmet() {
        let goal = "Change greet.py so that it takes an optional --shout flag that prints the \
                    greeting in capitals";
        // The assessment of a cli-flag run: the flag as a function's
        // argument, met from the code.
        let function = req(
            "The greeting function should return 'HELLO, {name}!' if the shout argument is True.",
            true,
            false,
        );
        let held = hold_to_goal(goal, vec![function.clone()]);
        assert_eq!(held.len(), 2);
        assert_eq!(held[0], function);
        assert!(!held[1].met && held[1].is_about_output(), "{:?}", held[1]);
        assert!(held[1].requirement.contains("--shout"));
        assert_eq!(
            verdict(
                &[run("python3 greet.py --shout", Some(0), None)],
                &held,
                &[]
            ),
            Verdict::Missing(vec![format!(
                "{} ({})",
                held[1].requirement, held[1].evidence
            )])
        );
        // A requirement that names it covers it, whatever its verdict.
        let named = output(
            "--shout prints in capitals",
            "python3 greet.py --shout",
            "HELLO",
        );
        assert_eq!(hold_to_goal(goal, vec![named.clone()]), vec![named]);
        // Not a requirement about tests that names it: tests show no run
        // of the program with it.
        let tested = req("tests of --shout pass", true, true);
        let held = hold_to_goal(goal, vec![tested.clone()]);
        assert_eq!(held.len(), 2, "{held:?}");
        assert!(!held[1].met && held[1].requirement.contains("--shout"));
        // A goal without options adds nothing; an option named twice is
        // added once.
        assert_eq!(hold_to_goal("Write rock-paper-scissors", vec![]), vec![]);
        assert_eq!(hold_to_goal("add -v; -v prints more", vec![]).len(), 1);
    }

    #[test]
    fn tests_asked_of_a_file_call_each_of_its_functions() {
        let code = |untested: &[&str]| TestedCode {
            path: "inventory.py".into(),
            public: 3,
            untested: untested.iter().map(|n| n.to_string()).collect(),
            heads: untested
                .iter()
                .map(|n| format!("def test_{}():", n.rsplit('.').next().unwrap_or(n)))
                .collect(),
            tests: 2,
            test_file: Some("test_inventory.py".into()),
            names: Vec::new(),
            test_files: Vec::new(),
        };
        let claimed = req("pytest tests for Inventory", true, true);
        // Every method called: as the assessment said.
        let held = hold_to_tested_code(vec![claimed.clone()], &[code(&[])]);
        assert_eq!(held, vec![claimed.clone()]);
        // One never called: unmet, and the cycle changes the test file.
        let held = hold_to_tested_code(vec![claimed.clone()], &[code(&["Inventory.remove"])]);
        assert_eq!(held.len(), 1);
        assert!(!held[0].met);
        assert_eq!(
            held[0].evidence,
            "no test calls Inventory.remove of inventory.py"
        );
        assert_eq!(
            held[0].requirement,
            "Inventory.remove of inventory.py has a test of its own that calls it and passes \
             (`def test_remove():`)"
        );
        assert_eq!(held[0].file.as_deref(), Some("test_inventory.py"));
        // None listed about tests: one is added, naming at most five.
        let names = ["a", "b", "c", "d", "e", "f", "g"];
        let held = hold_to_tested_code(vec![], &[code(&names)]);
        assert_eq!(
            held[0].requirement,
            "each of a, b, c, d, e and 2 more of inventory.py has a test of its own that calls \
             it and passes (`def test_a():`, `def test_b():`, `def test_c():`)"
        );
        assert!(!held[0].met && held[0].about_tests);
        let two = hold_to_tested_code(vec![], &[code(&["a", "b"])]);
        assert_eq!(two[0].evidence, "no test calls a and b of inventory.py");
        // All called, by one test function: not tests of each.
        let one = TestedCode {
            tests: 1,
            ..code(&[])
        };
        let held = hold_to_tested_code(vec![claimed.clone()], std::slice::from_ref(&one));
        assert_eq!(
            held[0].evidence,
            "one test function tests all of inventory.py: give each of its 3 functions a test \
             of its own"
        );
        assert_eq!(
            held[0].requirement,
            "each function of inventory.py has a test of its own that passes"
        );
        // With the first line of each test, when they are known.
        let headed = TestedCode {
            heads: vec!["def test_add():".into(), "def test_remove():".into()],
            ..one.clone()
        };
        let held = hold_to_tested_code(vec![claimed.clone()], &[headed]);
        assert_eq!(
            held[0].requirement,
            "each function of inventory.py has a test of its own that passes (`def \
             test_add():`, `def test_remove():`)"
        );
        // A file of one function needs one.
        let single = TestedCode { public: 1, ..one };
        assert_eq!(
            hold_to_tested_code(vec![claimed.clone()], &[single]),
            vec![claimed]
        );
    }

    #[test]
    fn tests_that_pass_on_a_broken_function_do_not_meet_the_requirement_about_tests() {
        use crate::lang::mutants::{Mutant, Survivor};
        let uncaught = |survivors: Vec<Survivor>| Uncaught {
            path: "stack.py".into(),
            test_file: Some("test_stack.py".into()),
            survivors,
        };
        let pop = Survivor {
            example: None,
            name: "Stack.pop".into(),
            mutant: Mutant::ReturnsNothing,
        };
        let push = Survivor {
            example: None,
            name: "Stack.push".into(),
            mutant: Mutant::DoesNothing,
        };
        let claimed = req("pytest tests for Stack", true, true);
        // Every mutant caught: as the assessment said.
        assert_eq!(
            hold_to_mutants(vec![claimed.clone()], &[uncaught(vec![])]),
            vec![claimed.clone()]
        );
        let held = hold_to_mutants(vec![claimed.clone()], &[uncaught(vec![pop.clone(), push])]);
        assert_eq!(held.len(), 1);
        assert!(!held[0].met);
        assert_eq!(
            held[0].evidence,
            "the tests still pass when Stack.pop returns None: add a new test function that \
             asserts what Stack.pop returns; the tests still pass when Stack.push does nothing: \
             add a new test function that asserts what Stack.push changes"
        );
        assert_eq!(
            held[0].requirement,
            "the tests fail when a function of stack.py is wrong"
        );
        assert_eq!(held[0].file.as_deref(), Some("test_stack.py"));
        // Unmet already: what it says stands.
        let unmet = req("pytest tests for Stack", false, true);
        assert_eq!(
            hold_to_mutants(vec![unmet.clone()], &[uncaught(vec![pop.clone()])]),
            vec![unmet]
        );
        // None about tests listed: one is added.
        let held = hold_to_mutants(vec![], &[uncaught(vec![pop])]);
        assert_eq!(
            held[0].requirement,
            "the tests fail when a function of stack.py is wrong"
        );
        assert!(!held[0].met && held[0].about_tests);
    }

    #[test]
    fn a_name_the_goal_calls_that_no_file_defines_is_unmet() {
        let goal = "Add a function count_vowels(text) to textutil.py";
        let claimed = req("count_vowels is defined in textutil.py", true, false);
        let held = hold_to_named(goal, vec![claimed.clone()], |_| false);
        assert_eq!(held.len(), 2);
        assert!(!held[1].met && held[1].requirement.starts_with("count_vowels"));
        assert!(matches!(verdict(&[], &held, &[]), Verdict::Missing(_)));
        assert_eq!(
            hold_to_named(goal, vec![claimed.clone()], |n| n == "count_vowels"),
            vec![claimed]
        );
        // Found unmet already, it is not asked for twice; held to tests,
        // its work is the definition first.
        let unmet = req("Add a function count_vowels(text)", false, true);
        let held = hold_to_named(goal, vec![unmet], |_| false);
        assert_eq!(held.len(), 1);
        assert_eq!(
            held[0].evidence,
            "no source file of the workspace defines count_vowels"
        );
        assert!(!held[0].about_tests);
        // Unmet tests of it are not its definition: that is asked for too.
        let tests = req("count_vowels has pytest tests", false, true);
        let held = hold_to_named(goal, vec![tests.clone()], |_| false);
        assert_eq!(held.len(), 2);
        assert_eq!(held[0], tests);
        assert!(!held[1].about_tests && held[1].requirement.starts_with("count_vowels"));
    }

    #[test]
    fn a_name_the_goal_calls_that_a_file_defines_longer_is_said_with_that_file() {
        let goal = "Build a package textcase that exposes snake(s) and kebab(s)";
        let held = hold_to_named(goal, vec![], |_| false);
        let near = |name: &str| {
            (name == "snake").then(|| ("textcase/snake.py".to_string(), "snake_case".to_string()))
        };
        let held = named_apart(goal, held, near);
        assert_eq!(
            held[0].evidence,
            "no source file of the workspace defines snake; textcase/snake.py defines \
             snake_case: the goal calls it snake, so that must be its name"
        );
        assert_eq!(held[0].file.as_deref(), Some("textcase/snake.py"));
        assert!(!held[0].met);
        assert_eq!(
            held[1].evidence,
            "no source file of the workspace defines kebab"
        );
        assert_eq!(held[1].file, None);
        assert!(longer_name("snake_case", "snake"));
        assert!(longer_name("to_snake", "snake"));
        assert!(!longer_name("snake", "snake"));
        assert!(!longer_name("snakes", "snake"));
    }

    #[test]
    fn a_function_that_returns_otherwise_than_an_example_of_the_goal_is_unmet() {
        use crate::lang::examples::Tried;
        let tried = |call: &str, got: Result<&str, &str>, same| Tried {
            call: call.into(),
            wanted: "'Fizz'".into(),
            got: got.map(str::to_string).map_err(str::to_string),
            same,
        };
        let examined = |tried| Examined {
            name: "fizzbuzz".into(),
            module: "fizzbuzz.py".into(),
            tried,
        };
        let listed = vec![req("fizzbuzz(n) returns Fizz", true, false)];
        // Right on each example: nothing to add, and run.
        let right = examined(vec![tried("fizzbuzz(3)", Ok("'Fizz'"), true)]);
        assert!(right.held());
        assert_eq!(hold_to_examples(listed.clone(), &[right]), listed);
        assert!(!examined(Vec::new()).held());
        let wrong = examined(vec![
            tried("fizzbuzz(3)", Ok("'3'"), false),
            tried("fizzbuzz(6)", Ok("'Fizz'"), true),
            tried("fizzbuzz(9)", Err("raised TypeError: no"), false),
        ]);
        assert!(!wrong.held());
        let held = hold_to_examples(listed.clone(), std::slice::from_ref(&wrong));
        assert_eq!(held.len(), 2);
        assert_eq!(held[0], listed[0]);
        assert_eq!(
            held[1],
            Requirement {
                requirement: "fizzbuzz returns what the goal says it returns".into(),
                met: false,
                evidence: "fizzbuzz(3) returned '3', the goal says 'Fizz'; fizzbuzz(9) raised \
                           TypeError: no, the goal says it returns 'Fizz'"
                    .into(),
                about_tests: false,
                about_output: false,
                shown_by: None,
                file: Some("fizzbuzz.py".into()),
            }
        );
        // Listed again as met by the next assessment: unmet again, once.
        let mut again = listed.clone();
        again.push(Requirement {
            met: true,
            ..held[1].clone()
        });
        assert_eq!(hold_to_examples(again, &[wrong]), held);
    }

    #[test]
    fn a_goal_that_gives_its_program_arguments_says_so() {
        for goal in [
            "Write a script word_count.py that prints the number of words in the file given as its argument",
            "a CLI that greets the name on its command line",
            "greet.py takes the name as a command-line argument",
        ] {
            assert!(speaks_of_arguments(goal), "{goal}");
        }
        assert!(!speaks_of_arguments(
            "Write a guessing game that asks the user for numbers"
        ));
    }

    #[test]
    fn a_library_function_right_on_the_goal_s_examples_needs_no_tests_the_goal_did_not_ask_for() {
        use crate::lang::examples::Tried;
        let examined = |same| Examined {
            name: "count_vowels".into(),
            module: "textutil.py".into(),
            tried: vec![Tried {
                call: "count_vowels('hello')".into(),
                wanted: "2".into(),
                got: Ok(if same { "2" } else { "5" }.into()),
                same,
            }],
        };
        // The p1 add-function assessment: met by the model's word, shown by
        // running the library, held to tests that did not run.
        let said = Requirement {
            shown_by: Some(ShownBy {
                command: "python3 textutil.py".into(),
                expects: String::new(),
            }),
            ..req(
                "Add a function count_vowels(text) to textutil.py that returns how many vowels",
                true,
                false,
            )
        };
        let held = hold_to_tests(
            shown_by_library(vec![said], false, |word| word == "textutil.py"),
            &[run("python3 textutil.py", Some(0), None)],
        );
        assert!(!held[0].met && held[0].about_tests, "{held:?}");
        let shown = shown_by_examples(false, held.clone(), &[examined(true)]);
        assert!(shown[0].met && !shown[0].about_tests, "{shown:?}");
        assert_eq!(
            shown[0].evidence,
            "called on the goal's examples: count_vowels('hello') returned 2"
        );
        // Not when an example went wrong, nor for a goal that asks for
        // tests, nor for another function's requirement.
        assert_eq!(
            shown_by_examples(false, held.clone(), &[examined(false)]),
            held
        );
        assert_eq!(
            shown_by_examples(true, held.clone(), &[examined(true)]),
            held
        );
        let other = Requirement {
            requirement: "Add a function reverse(text)".into(),
            ..held[0].clone()
        };
        assert_eq!(
            shown_by_examples(false, vec![other.clone()], &[examined(true)]),
            vec![other]
        );
        // Not one the model itself called unmet.
        let unmet = Requirement {
            evidence: "it counts y as a vowel".into(),
            ..held[0].clone()
        };
        assert_eq!(
            shown_by_examples(false, vec![unmet.clone()], &[examined(true)]),
            vec![unmet]
        );
    }

    #[test]
    fn a_name_the_goal_calls_is_met_only_when_something_ran_it() {
        let goal = "Add a function count_vowels(text) to textutil.py";
        let read = req("count_vowels returns the number of vowels", true, false);
        let passed = [run("python3 -m pytest -q", Some(0), Some((2, 0)))];
        let bare = [run("python3 textutil.py", Some(0), None)];
        let callers = |tested, programs: &[&str]| Callers {
            tested,
            programs: programs.iter().map(|p| p.to_string()).collect(),
            test_file: None,
        };
        // A language that cannot tell, or a name no source defines: as is.
        assert_eq!(
            hold_to_exercised(goal, vec![read.clone()], &bare, |_| None),
            vec![read.clone()]
        );
        // Only read: an unmet requirement about tests.
        let held = hold_to_exercised(goal, vec![read.clone()], &bare, |_| {
            Some(callers(false, &[]))
        });
        assert_eq!(held.len(), 2);
        assert_eq!(held[1].requirement, "a test calls count_vowels and passes");
        assert!(!held[1].met && held[1].about_tests);
        assert!(matches!(verdict(&bare, &held, &[]), Verdict::Missing(_)));
        // A test calls it and the tests passed: as is.
        assert_eq!(
            hold_to_exercised(goal, vec![read.clone()], &passed, |_| Some(callers(
                true,
                &[]
            ))),
            vec![read.clone()]
        );
        // A test calls it, and no test ran.
        let held = hold_to_exercised(goal, vec![read.clone()], &bare, |_| {
            Some(callers(true, &[]))
        });
        assert_eq!(
            held[1].evidence,
            "a test calls count_vowels, but the last check ran no test that passed"
        );
        // A program that calls it, run to show output that held.
        let shown = output("it prints the count", "python3 count.py banana", "3");
        let held = hold_to_exercised(goal, vec![shown.clone()], &bare, |_| {
            Some(callers(false, &["count.py"]))
        });
        assert_eq!(held, vec![shown.clone()]);
        let failed = Requirement {
            met: false,
            ..shown
        };
        assert_eq!(
            hold_to_exercised(goal, vec![failed], &bare, |_| Some(callers(
                false,
                &["count.py"]
            )))
            .len(),
            2
        );
        // A requirement about its tests, said met, is held unmet, and is
        // not asked for twice; its test file is the one to change.
        let claimed = req("pytest tests for count_vowels pass", true, true);
        let held = hold_to_exercised(goal, vec![claimed], &bare, |_| {
            Some(Callers {
                test_file: Some("test_textutil.py".into()),
                ..callers(false, &[])
            })
        });
        assert_eq!(held.len(), 1);
        assert!(!held[0].met, "{held:?}");
        assert_eq!(held[0].file.as_deref(), Some("test_textutil.py"));
    }

    #[test]
    fn a_goal_that_asks_what_a_program_prints_is_not_met_by_a_silent_one() {
        let goal = "Write a script word_count.py that prints the number of words in a file";
        assert!(speaks_of_output(goal));
        assert!(!speaks_of_output(
            "Add a function that returns the sum, with tests"
        ));
        let claimed = vec![req("count_words returns the number of words", true, false)];
        let mut silent = run("python3 word_count.py", Some(0), None);
        silent.output = "$ python3 word_count.py\nexit code 0".into();
        let held = hold_to_output_asked(true, claimed.clone());
        assert_eq!(held.len(), 2);
        assert!(!held[1].met && held[1].about_output);
        assert!(matches!(
            verdict(&[silent], &held, &[]),
            Verdict::Missing(_)
        ));
        // A run that printed is no evidence: the requirement is added all
        // the same, and the run is not met.
        let mut spoke = run("python3 word_count.py sample.txt", Some(0), None);
        spoke.output = "$ python3 word_count.py sample.txt\nexit code 0\n--- stdout ---\n1".into();
        let held = hold_to_output_asked(true, claimed.clone());
        assert!(matches!(verdict(&[spoke], &held, &[]), Verdict::Missing(_)));
        // A requirement about output (whose command the runner runs), or a
        // goal that asks for no output: nothing added.
        let shown = vec![output("prints 5", "python3 word_count.py s.txt", "5")];
        assert_eq!(hold_to_output_asked(true, shown.clone()), shown);
        let flagged = vec![req("greet.py --shout prints in capitals", false, false)];
        assert_eq!(hold_to_output_asked(true, flagged.clone()), flagged);
        assert_eq!(hold_to_output_asked(false, claimed.clone()), claimed);
    }

    #[test]
    fn a_requirement_shown_by_a_test_run_is_held_to_the_tests() {
        let pytest = |command: &str| command.contains("pytest");
        let claimed = vec![
            output("average returns the mean", "python3 -m pytest -q", "2.0"),
            output("it prints the total", "python3 calc.py 1 2", "3"),
        ];
        let held = shown_by_tests(claimed.clone(), pytest);
        assert!(held[0].about_tests && !held[0].about_output && held[0].shown_by.is_none());
        assert_eq!(
            held[1], claimed[1],
            "a run of the program stays about output"
        );
        // Met by tests that ran and passed, unmet by tests that failed or
        // did not run, whatever the test run printed.
        let passed = run("python3 -m pytest -q", Some(0), Some((3, 0)));
        let failed = run("python3 -m pytest -q", Some(1), Some((2, 1)));
        assert!(hold_to_tests(held.clone(), std::slice::from_ref(&passed))[0].met);
        assert!(!hold_to_tests(held.clone(), &[failed])[0].met);
        assert!(!hold_to_tests(held.clone(), &[])[0].met);
        // Not shown: the runner never holds a test run's output to a value.
        assert_eq!(hold_to_output(held.clone(), &[])[0], held[0]);
    }

    #[test]
    fn a_requirement_shown_by_running_a_library_is_held_to_the_tests() {
        let library = |word: &str| word == "calc.py";
        let claimed = vec![
            output("add returns the sum", "python3 calc.py 3 4", "7"),
            output("it prints the total", "python3 total.py 3 4", "7"),
            output(
                "calc.py --sum prints the sum",
                "python3 calc.py --sum 3 4",
                "7",
            ),
        ];
        let held = shown_by_library(claimed.clone(), false, library);
        assert!(held[0].about_tests && !held[0].about_output && held[0].shown_by.is_none());
        assert_eq!(
            held[1..],
            claimed[1..],
            "a program, or an option named, stays"
        );
        let passed = run("python3 -m pytest -q", Some(0), Some((3, 0)));
        assert!(hold_to_tests(held.clone(), std::slice::from_ref(&passed))[0].met);
        assert!(!hold_to_tests(held, &[])[0].met);
        // A goal that asks what a program prints keeps it about output.
        assert_eq!(shown_by_library(claimed.clone(), true, library), claimed);
        // One the model says is not about output, met by its reading of
        // the code, is held to the tests too.
        let mut plain = claimed[0].clone();
        plain.about_output = false;
        let held = shown_by_library(vec![plain], false, library);
        assert!(held[0].about_tests && held[0].shown_by.is_none());
        assert!(!hold_to_tests(held, &[])[0].met);
    }

    #[test]
    fn a_check_that_passes_arguments_a_program_never_reads_shows_nothing() {
        let claimed = vec![req("it can be run", true, false)];
        let check = run("python3 word_count.py word_count.py", Some(0), None);
        let ignores = |word: &str| {
            (word == "word_count.py").then_some(("sys.argv", "`sys.argv[1]` (after `import sys`)"))
        };
        let held = hold_to_arguments(
            claimed.clone(),
            std::slice::from_ref(&check),
            false,
            ignores,
            |_| true,
        );
        assert_eq!(held.len(), 2);
        assert!(!held[1].met);
        assert_eq!(
            held[1].requirement,
            "word_count.py reads the arguments it is run with, from sys.argv"
        );
        assert!(
            held[1].evidence.ends_with(
                ": read them from sys.argv; `sys.argv[1]` (after `import sys`) is the first"
            ),
            "{}",
            held[1].evidence
        );
        assert_eq!(held[1].file.as_deref(), Some("word_count.py"));
        assert!(matches!(verdict(&[check], &held, &[]), Verdict::Missing(_)));
        // Run without arguments, or a program that reads them, or a
        // check that failed (it is unmet already): nothing added.
        let bare = run("python3 word_count.py", Some(0), None);
        assert_eq!(
            hold_to_arguments(claimed.clone(), &[bare], false, ignores, |_| true),
            claimed
        );
        let reads = run("python3 word_count.py words.txt", Some(0), None);
        assert_eq!(
            hold_to_arguments(claimed.clone(), &[reads], false, |_| None, |_| true),
            claimed
        );
        let failed = run("python3 word_count.py words.txt", Some(1), None);
        assert_eq!(
            hold_to_arguments(claimed.clone(), &[failed], false, ignores, |_| true),
            claimed
        );
        // A requirement met by a run with arguments, beside a check with
        // none (y2's word-count: `count_words('example.txt')`).
        let mut shown = req("it prints the number of words", true, false);
        shown.about_output = true;
        shown.shown_by = Some(ShownBy {
            command: "python3 word_count.py example.txt".into(),
            expects: "11".into(),
        });
        let bare = run("python3 word_count.py", Some(0), None);
        let is_file = |word: &str| word == "example.txt" || word == "word_count.py";
        let held = hold_to_arguments(
            vec![shown.clone()],
            std::slice::from_ref(&bare),
            false,
            ignores,
            is_file,
        );
        assert_eq!(held.len(), 2, "{held:?}");
        assert!(!held[1].met);
        assert!(
            held[1].evidence.starts_with(
                "`python3 word_count.py example.txt` passes arguments to word_count.py"
            ),
            "{}",
            held[1].evidence
        );
        assert!(matches!(
            verdict(std::slice::from_ref(&bare), &held, &[]),
            Verdict::Missing(_)
        ));
        assert_eq!(
            hold_to_arguments(
                vec![shown.clone()],
                std::slice::from_ref(&bare),
                false,
                |_| None,
                is_file
            ),
            vec![shown.clone()]
        );
        // A name, not a file, given to a program that ignores it.
        let mut named = shown.clone();
        named.shown_by = Some(ShownBy {
            command: "python3 word_count.py Alice".into(),
            expects: "11".into(),
        });
        assert_eq!(
            hold_to_arguments(
                vec![named.clone()],
                std::slice::from_ref(&bare),
                false,
                ignores,
                is_file
            ),
            vec![named.clone()]
        );
        // A goal that gives the program arguments: any run of it is held
        // (t4's countdown: `python3 countdown.py 5` of `countdown(5)`),
        // and a bare one too.
        let held = hold_to_arguments(vec![named.clone()], &[], true, ignores, is_file);
        assert_eq!(held.len(), 2, "{held:?}");
        assert!(
            held[1]
                .evidence
                .starts_with("`python3 word_count.py Alice` passes arguments to word_count.py"),
            "{}",
            held[1].evidence
        );
        let held = hold_to_arguments(
            claimed.clone(),
            std::slice::from_ref(&bare),
            true,
            ignores,
            |_| true,
        );
        assert_eq!(held.len(), 2, "{held:?}");
        assert!(
            held[1].evidence.starts_with(
                "the goal gives word_count.py arguments, and word_count.py never reads"
            ),
            "{}",
            held[1].evidence
        );
        assert_eq!(
            hold_to_arguments(claimed.clone(), &[bare], true, |_| None, |_| true),
            claimed
        );
    }

    #[test]
    fn a_goal_gives_arguments_when_its_words_give_the_program_something() {
        for goal in [
            "Write countdown.py: given a number as its argument, it prints the numbers",
            "sum_numbers.py reads the file named on the command line",
            "print the sum of the args",
            "Write table.py, which prints the multiplication table of the number it is given",
            "a script that prints the file passed to it",
        ] {
            assert!(given_arguments(goal), "{goal}");
        }
        for goal in [
            "Make a small CLI that greets the world",
            "a command-line tool that prints the date",
            "hello.py takes no arguments and prints hello",
            "Write rock-paper-scissors",
            "Add double(n) to calc.py: it returns the number it is given, doubled",
        ] {
            assert!(!given_arguments(goal), "{goal}");
        }
    }

    #[test]
    fn a_program_that_never_reads_its_standard_input_does_not_meet_a_goal_that_gives_it_some() {
        let check = |command: &str| CheckRun {
            command: command.into(),
            exit_code: Some(0),
            output: "5".into(),
            tests: None,
            wants_arguments: false,
        };
        let claimed = vec![Requirement {
            requirement: "it prints how many vowels the line has".into(),
            met: true,
            evidence: "5".into(),
            about_tests: false,
            about_output: false,
            shown_by: None,
            file: None,
        }];
        let checks = [check("python3 vowels.py < input.txt")];
        let held = hold_to_standard_input(true, claimed.clone(), &checks, |w| w == "vowels.py");
        assert_eq!(held.len(), 2);
        assert!(!held[1].met);
        assert_eq!(held[1].requirement, "vowels.py reads its standard input");
        assert_eq!(held[1].file.as_deref(), Some("vowels.py"));
        // A program that reads it, or a goal that gives it none, holds.
        assert_eq!(
            hold_to_standard_input(true, claimed.clone(), &checks, |_| false),
            claimed
        );
        assert_eq!(
            hold_to_standard_input(false, claimed.clone(), &checks, |w| w == "vowels.py"),
            claimed
        );
    }

    #[test]
    fn a_goal_reads_standard_input_when_its_words_say_so() {
        for goal in [
            "Write vowels.py, a program that reads one line from standard input",
            "a filter that upper-cases the lines on its stdin",
            "count the words of the text piped to it",
        ] {
            assert!(reads_standard_input(goal), "{goal}");
        }
        for goal in [
            "Write countdown.py: given a number as its argument, it prints the numbers",
            "ask the user for their name and greet them",
            "Write a function that reads a file and counts its lines",
        ] {
            assert!(!reads_standard_input(goal), "{goal}");
        }
    }

    #[test]
    fn the_options_a_requirement_names_are_found() {
        let found: Vec<&str> =
            options("Add a `--shout` flag (or -s), like e-mail, - and --: see --name.").collect();
        assert_eq!(found, vec!["--shout", "-s", "--name"]);
    }

    #[test]
    fn achieved_only_when_every_check_passed_and_every_requirement_is_met() {
        let pass = run("python3 -m pytest -q", Some(0), Some((3, 0)));
        assert_eq!(
            verdict(std::slice::from_ref(&pass), &[req("add", true, false)], &[]),
            Verdict::Achieved
        );
        assert_eq!(
            verdict(
                &[run("python3 -m pytest -q", Some(1), Some((2, 1)))],
                &[req("add", true, false)],
                &["write calc.py".into()]
            ),
            Verdict::Missing(vec!["`python3 -m pytest -q` failed (exit code 1)".into()])
        );
        assert_eq!(
            verdict(
                std::slice::from_ref(&pass),
                &[req("mul", false, false)],
                &[]
            ),
            Verdict::Missing(vec!["mul (seen)".into()])
        );
        assert_eq!(
            verdict(&[pass], &[], &[]),
            Verdict::Missing(vec!["no requirement of the goal could be assessed".into()])
        );
        assert_eq!(
            verdict(
                &[run("python3 game.py", None, None)],
                &[req("game", true, false)],
                &[]
            ),
            Verdict::Missing(vec!["`python3 game.py` did not finish".into()])
        );
        assert_eq!(
            verdict(&[], &[req("poem", true, false)], &["Write poem.txt".into()]),
            Verdict::Missing(vec!["Write poem.txt (it failed)".into()]),
            "with no check, a failed subtask is not taken as done"
        );
        assert_eq!(
            verdict(&[], &[req("poem", true, false)], &[]),
            Verdict::Achieved
        );
    }

    #[test]
    fn a_requirement_about_tests_needs_tests_that_ran_and_passed() {
        let claimed = vec![
            req("tests of fizzbuzz", true, true),
            req("fizzbuzz", true, false),
        ];
        let ran_program = [run("python3 fizzbuzz.py", Some(0), None)];
        let held = hold_to_tests(claimed.clone(), &ran_program);
        assert!(!held[0].met);
        assert_eq!(held[0].evidence, "the last check ran no test that passed");
        assert!(
            held[1].met,
            "a requirement not about tests is the model's to judge"
        );
        let no_tests_collected = [run("python3 -m pytest -q", Some(0), Some((0, 0)))];
        assert!(!hold_to_tests(claimed.clone(), &no_tests_collected)[0].met);
        let tested = [run("python3 -m pytest -q", Some(0), Some((4, 0)))];
        assert_eq!(hold_to_tests(claimed.clone(), &tested), claimed);
        assert!(!hold_to_tests(claimed, &[])[0].met);
    }

    #[test]
    fn an_unmet_that_quotes_an_output_of_a_check_that_printed_nothing_is_misquoted() {
        let mut quoting = req("oldest(people) returns the oldest's name", false, false);
        quoting.evidence = "The output of `python3 people.py` is `None`.".into();
        let mut silent = run("python3 people.py", Some(0), None);
        silent.output = "$ python3 people.py\nexit code 0".into();
        assert_eq!(
            misquoted_evidence(
                std::slice::from_ref(&quoting),
                std::slice::from_ref(&silent)
            ),
            Some(
                "its evidence \"The output of `python3 people.py` is `None`.\" quotes `None` as \
                 what `python3 people.py` gives, but that check printed nothing (exit code 0). \
                 Judge each requirement on the FILES and CHECKS as they are now"
                    .into()
            )
        );
        // It printed something: the model's reading of it stands.
        let mut printing = silent.clone();
        printing.output = "$ python3 people.py\nexit code 0\n--- stdout ---\nAnn".into();
        assert_eq!(
            misquoted_evidence(std::slice::from_ref(&quoting), &[printing]),
            None
        );
        // Another command, no quote after it, or met: nothing to say.
        let mut other = quoting.clone();
        other.evidence = "`python3 other.py` gives `None`".into();
        let mut bare = quoting.clone();
        bare.evidence = "`python3 people.py` exits 0 and oldest is missing".into();
        let mut met = quoting.clone();
        met.met = true;
        for answer in [other, bare, met] {
            assert_eq!(
                misquoted_evidence(&[answer], std::slice::from_ref(&silent)),
                None
            );
        }
    }

    #[test]
    fn an_unmet_on_the_runners_words_for_no_passing_test_is_stale_once_tests_pass() {
        let mut copied = req("tests of fizzbuzz", false, true);
        copied.evidence = "The last check ran no test that passed.".into();
        let tested = [run("python3 -m pytest -q", Some(0), Some((3, 0)))];
        assert_eq!(
            stale_evidence(std::slice::from_ref(&copied), &tested),
            Some(
                "its evidence \"The last check ran no test that passed.\" is not true now: \
                 `python3 -m pytest -q` ran tests and they passed (3 passed). Judge each \
                 requirement on the FILES and CHECKS as they are now"
                    .into()
            )
        );
        let failing = [run("python3 -m pytest -q", Some(1), Some((2, 1)))];
        assert_eq!(
            stale_evidence(std::slice::from_ref(&copied), &failing),
            None
        );
        let mut own = copied.clone();
        own.evidence = "test_add asserts nothing".into();
        assert_eq!(
            stale_evidence(&[own], &tested),
            None,
            "the model's own words"
        );
        copied.met = true;
        assert_eq!(
            stale_evidence(&[copied], &tested),
            None,
            "met is not asked again"
        );
    }

    #[test]
    fn a_run_that_only_wanted_arguments_counts_when_something_else_ran_the_code() {
        let bare = CheckRun {
            wants_arguments: true,
            ..run("python3 fizzbuzz.py", Some(1), None)
        };
        let tests = run("python3 -m pytest -q", Some(0), Some((3, 0)));
        let checks = [bare.clone(), tests];
        let met = [req("fizzbuzz(n) returns Fizz", true, false)];
        // Something ran fizzbuzz.py's code: achieved.
        let requirements = hold_to_run(met.to_vec(), &checks, |program| program == "fizzbuzz.py");
        assert_eq!(requirements, met);
        assert_eq!(verdict(&checks, &requirements, &[]), Verdict::Achieved);
        // Nothing did: its run is unmet, about the program.
        let requirements = hold_to_run(met.to_vec(), &checks, |_| false);
        let unmet = &requirements[1];
        assert_eq!(
            (unmet.requirement.as_str(), unmet.met, unmet.file.as_deref()),
            ("`python3 fizzbuzz.py` runs", false, Some("fizzbuzz.py"))
        );
        assert_eq!(
            unmet.evidence,
            "fizzbuzz.py stopped where it reads the arguments or input it is run with, which \
             `python3 fizzbuzz.py` does not give, and no test that passed and no example of the \
             goal ran its code: run it with what the goal gives it, or test what it defines"
        );
        assert!(matches!(
            verdict(&checks, &requirements, &[]),
            Verdict::Missing(_)
        ));
        // A run of it with an argument showed what it prints.
        let printed = [output(
            "it prints FizzBuzz",
            "python3 fizzbuzz.py 15",
            "FizzBuzz",
        )];
        assert_eq!(hold_to_run(printed.to_vec(), &checks, |_| false), printed);
        // The same exit without the mark is a failed check.
        let failed = [run("python3 fizzbuzz.py", Some(1), None)];
        assert_eq!(
            verdict(&failed, &met, &[]),
            Verdict::Missing(vec!["`python3 fizzbuzz.py` failed (exit code 1)".into()])
        );
    }

    #[test]
    fn a_program_that_ran_before_the_plan_prints_the_same_without_the_option() {
        let printing = |command: &str, code: i32, text: &str| CheckRun {
            output: format!("$ {command}\nexit code {code}\n--- stdout ---\n{text}"),
            ..run(command, Some(code), None)
        };
        let before = [printing("python3 greet.py", 0, "Hello, world!\n")];
        let options = ["--shout".to_string()];
        let met = [req("greet.py takes --shout", true, false)];
        // Capitals for every run (b2's cli-flag): unmet, shown by the run
        // and what it printed before, which a cycle runs until it does.
        let shouted = [printing("python3  greet.py", 0, "HELLO, WORLD!\n")];
        let held = hold_to_kept(met.to_vec(), &shouted, &before, &options);
        assert_eq!(held.len(), 2);
        let kept = &held[1];
        assert_eq!(
            (kept.requirement.as_str(), kept.met, kept.file.as_deref()),
            (
                "`python3 greet.py` prints what it printed before this run",
                false,
                Some("greet.py")
            )
        );
        assert_eq!(
            kept.evidence,
            "it printed \"HELLO, WORLD!\"; before this run it printed \"Hello, world!\", and the \
             goal asks to change what --shout does, not what it prints without it"
        );
        assert_eq!(kept.to_redo(), Some(("python3 greet.py", "Hello, world!")));
        assert!(matches!(verdict(&shouted, &held, &[]), Verdict::Missing(_)));
        // The same text, spaced otherwise: met, and held again, not twice.
        let same = [printing("python3 greet.py", 0, "Hello,  world!")];
        let held = hold_to_kept(held, &same, &before, &options);
        assert_eq!(held.len(), 2);
        assert!(held[1].met, "{:?}", held[1]);
        assert_eq!(verdict(&same, &held, &[]), Verdict::Achieved);
        // t29's: a requirement of the run without the option, held unmet
        // for not passing it while it prints as before, goes; it stays
        // while nothing shows what the option does.
        let shown = |text: &str, command: &str, expects: &str| Requirement {
            shown_by: Some(ShownBy {
                command: command.into(),
                expects: expects.into(),
            }),
            ..req(text, false, false)
        };
        let lowercase = shown(
            "It prints the greeting in lowercase when the --shout flag is not provided",
            "python3 greet.py",
            "Hello, world!",
        );
        let shouting = shown(
            "--shout prints capitals",
            "python3 greet.py --shout",
            "HELLO",
        );
        let both = [shouting.clone(), lowercase.clone()];
        let held = hold_to_kept(both.to_vec(), &same, &before, &options);
        assert_eq!(held.len(), 2, "{held:?}");
        assert_eq!(held[0], shouting);
        assert!(held[1].met, "{:?}", held[1]);
        let alone = hold_to_kept(vec![lowercase.clone()], &same, &before, &options);
        assert!(alone.contains(&lowercase), "{alone:?}");
        // Text it does not print stays, as does all of it when it prints
        // otherwise than before.
        let other = shown("It prints Hi", "python3 greet.py", "Hi, world!");
        let held = hold_to_kept(
            vec![shouting.clone(), other.clone()],
            &same,
            &before,
            &options,
        );
        assert!(held.contains(&other), "{held:?}");
        let held = hold_to_kept(both.to_vec(), &shouted, &before, &options);
        assert!(held.contains(&lowercase), "{held:?}");
        // A failing run now is not the same; one that did not run again,
        // or failed before, holds nothing.
        let failed = [printing("python3 greet.py", 1, "Hello, world!")];
        assert!(!hold_to_kept(met.to_vec(), &failed, &before, &options)[1].met);
        assert_eq!(hold_to_kept(met.to_vec(), &[], &before, &options), met);
        let failed_before = [printing("python3 greet.py", 2, "usage")];
        assert_eq!(
            hold_to_kept(met.to_vec(), &shouted, &failed_before, &options),
            met
        );
    }

    #[test]
    fn a_goal_that_speaks_of_tests_has_a_requirement_about_them() {
        let is_test = |word: &str| word.starts_with("test_") && word.ends_with(".py");
        for goal in [
            "Add pytest tests for the Inventory class",
            "Write fizzbuzz.py; add tests for it",
            "Make test_calc.py pass",
            "The tests in test_calc.py fail. Fix the bug",
        ] {
            assert!(speaks_of_tests(goal, is_test), "{goal}");
        }
        for goal in [
            "Write a hello world script",
            "Add a --shout flag",
            "protest.py says no",
        ] {
            assert!(!speaks_of_tests(goal, is_test), "{goal}");
        }
        let methods = vec![req("Inventory has add", true, false)];
        let pytest = run("python3 -m pytest -q", Some(0), Some((3, 0)));
        let program = run("python3 inventory.py", Some(0), None);
        // Not spoken of: nothing added.
        assert_eq!(
            hold_to_tests_asked(false, methods.clone(), std::slice::from_ref(&program), true),
            methods
        );
        // Spoken of, and no test ran: added, unmet.
        let held = hold_to_tests_asked(true, methods.clone(), std::slice::from_ref(&program), true);
        assert_eq!(held.len(), 2);
        assert!(held[1].about_tests && !held[1].met, "{:?}", held[1]);
        // Tests ran and passed, and they are new: met.
        let held = hold_to_tests_asked(true, methods.clone(), &[program, pytest.clone()], true);
        assert!(held[1].met, "{:?}", held[1]);
        // Only the project's own tests, as they were, passing: unmet.
        let held = hold_to_tests_asked(true, methods.clone(), std::slice::from_ref(&pytest), false);
        assert!(!held[1].met, "{:?}", held[1]);
        // A requirement about tests already there: nothing added.
        let listed = vec![req("tests pass", false, true)];
        assert_eq!(
            hold_to_tests_asked(true, listed.clone(), &[pytest], true),
            listed
        );
    }

    #[test]
    fn a_package_the_goal_names_gives_its_modules_functions() {
        let missing = |package: &str, name: &str| Unexported {
            package: package.into(),
            name: name.into(),
            module: format!("{package}/{name}.py"),
            binder: format!("{package}/__init__.py"),
            binding: format!("from .{name} import {name}"),
        };
        let unexported = vec![missing("mathx", "add"), missing("other", "f")];
        let goal = "Create a mathx package with add and mul functions and pytest tests";
        let held = hold_to_exports(goal, vec![req("files exist", true, false)], &unexported);
        assert_eq!(held.len(), 2, "only the package the goal names: {held:?}");
        assert_eq!(
            held[1].requirement,
            "mathx/__init__.py imports add from mathx/add.py, so that `from mathx import add` \
             gives add"
        );
        assert!(!held[1].met);
    }
}
