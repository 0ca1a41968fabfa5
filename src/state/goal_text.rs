//! What a program prints when the goal's own words are that text: "Write a
//! hello world script" asks for a program that prints hello world, and no
//! word of output says so (a goal that has one gets a requirement about
//! output, shown by a run). The model is asked once a run, from the
//! goal alone (no code, no output), what the program the goal asks for
//! prints every time it runs, twice in other words and a third time when
//! those disagree (see [`crate::state::Event::GoalTextRead`]). What two
//! answers agree on holds the program's run only when it is words of the
//! goal, one after another (any case): a model asked so answers for a
//! date script `2023-04-14` twice and for a rock-paper-scissors game a
//! welcome line of its own, and neither is the goal's to give. A hello
//! world whose `__main__` called a function that returned the greeting
//! printed nothing, its bare check passed, and nothing held it to print.

use serde::{Deserialize, Serialize};

use super::verdict::{CheckRun, Requirement, ShownBy, cut, described_quotes, says, spoken};

/// The answers to what the program the goal asks for prints every time it
/// runs, from the goal's words alone.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct GoalText {
    /// The answers that could be read, in the order asked.
    pub prints: Vec<String>,
    /// Questions asked (an answer that could not be read is not kept).
    pub asked: u32,
}

/// A text's words of letters and digits in lower case, one space apart:
/// the goal's words do not give the case or the punctuation of what a
/// program prints ("hello world" is said by `Hello, World!`).
fn words(text: &str) -> String {
    spoken(&text.to_lowercase())
}

impl GoalText {
    /// The answers that say something (of letters or digits); one that
    /// quotes the text in words or code about output (`print('Hello,
    /// world!')`), the text it quotes. s2's hello, asked through the
    /// OpenAI API, answered `Hello, world!` and then that call twice.
    pub fn readings(&self) -> Vec<&str> {
        super::samples::said(&self.prints)
            .into_iter()
            .map(|answer| match described_quotes(answer).as_slice() {
                [text] if !spoken(text).is_empty() => *text,
                _ => answer,
            })
            .collect()
    }

    /// What two answers agree on: the same words, case and punctuation
    /// aside. Not one said within the other: a welcome line of a game
    /// holds the game's name.
    pub fn agreed(&self) -> Option<&str> {
        let readings = self.readings();
        readings.iter().enumerate().find_map(|(i, a)| {
            readings[i + 1..]
                .iter()
                .any(|b| words(a) == words(b))
                .then_some(*a)
        })
    }

    /// Whether a third question would add nothing: two answers agree, two
    /// say the goal gives no text (`""`), or three were asked.
    pub fn settled(&self) -> bool {
        let none = self.prints.len() - self.readings().len();
        self.agreed().is_some() || none >= 2 || self.asked >= 3
    }

    /// The text a program of `goal` must print: the agreed answer, when
    /// its words are words of the goal one after another, and the goal
    /// names no output (see [`names_text`]).
    pub fn held<'a>(&'a self, goal: &str) -> Option<&'a str> {
        self.agreed()
            .filter(|agreed| names_text(goal) && says(&words(goal), &words(agreed)))
    }
}

/// Words by which a goal says what a program does with a text: the text
/// may then be printed only at times ("a guessing game that says 'You
/// win!' when the guess is right", which the model, asked what it prints
/// every time, answered `You win!` three times).
const SAYING_WORDS: [&str; 12] = [
    "say", "says", "said", "saying", "show", "shows", "showing", "return", "returns", "answer",
    "answers", "when",
];

/// Whether a text the goal's words are can be what its program prints
/// every time: the goal has no word of output ([`super::verdict::speaks_of_output`]:
/// a goal that asks for output gets a requirement about it, shown by a
/// run) and no word of saying ([`SAYING_WORDS`]). "Write a hello world
/// script" has neither.
pub fn names_text(goal: &str) -> bool {
    !super::verdict::speaks_of_output(goal)
        && !words(goal)
            .split(' ')
            .any(|word| SAYING_WORDS.contains(&word))
}

/// The checks that ran a program (`is_program_run`: not tests), not
/// those that only wanted arguments.
fn program_runs(checks: &[CheckRun], is_program_run: impl Fn(&str) -> bool) -> Vec<&CheckRun> {
    checks
        .iter()
        .filter(|check| !check.wants_arguments && is_program_run(&check.command))
        .collect()
}

/// The requirement [`hold_to_goal_text`] adds for `text`.
fn text_requirement(text: &str) -> String {
    format!("the program prints {text:?}, as the goal's words give it")
}

/// When the goal's words are the text its program prints (see
/// [`GoalText::held`]), a requirement that a check that ran a program
/// (`programs`: not tests, nor a run that only wanted arguments) printed
/// it, case and punctuation aside: met when one did; not met when none
/// did, shown by the first, so a cycle runs it until it prints the text.
/// Nothing is added when no check ran a program (tests show a goal's
/// program otherwise).
pub fn hold_to_goal_text(
    mut requirements: Vec<Requirement>,
    goal: &str,
    text: &GoalText,
    checks: &[CheckRun],
    is_program_run: impl Fn(&str) -> bool,
) -> Vec<Requirement> {
    let Some(expects) = text.held(goal) else {
        return requirements;
    };
    let programs = program_runs(checks, is_program_run);
    let Some(first) = programs.first() else {
        return requirements;
    };
    let printed = |check: &CheckRun| crate::tools::printed(&check.output);
    let said = programs
        .iter()
        .find(|check| check.passed() && says(&words(&printed(check)), &words(expects)));
    let shown = said.unwrap_or(first);
    let evidence = match (said, first.passed()) {
        (Some(check), _) => format!(
            "`{}` printed {:?}",
            check.command,
            cut(printed(check).trim(), 80)
        ),
        (None, false) => format!("`{}` failed", first.command),
        (None, true) => format!(
            "`{}` printed {:?}, which does not say {expects:?}",
            first.command,
            cut(printed(first).trim(), 80)
        ),
    };
    let text = text_requirement(expects);
    requirements.retain(|r| r.requirement != text);
    requirements.push(Requirement {
        requirement: text,
        met: said.is_some(),
        evidence,
        about_tests: false,
        about_output: true,
        shown_by: Some(ShownBy {
            command: shown.command.clone(),
            expects: expects.to_string(),
        }),
        file: None,
    });
    requirements
}

/// The requirement [`hold_to_speaking`] adds.
pub const SPEAKING: &str = "the program prints something every time it runs";

/// When every answer to what the program prints every time it runs gives
/// a text (two at least, none `""`) and no text the goal's words are is
/// held (see [`GoalText::held`]: `Hello, world!` for "a small program
/// that greets the world", or answers that disagree), that the program
/// prints something is: a program every run of which by the checks
/// (`programs`, as in [`hold_to_goal_text`]) printed nothing is not what
/// any answer foresaw, and a requirement says so, unmet, shown by the
/// first run. A goal that asks for tests (`asks_for_tests`) or names a
/// function in call form is left out: its code may be a library its tests
/// or calls show (an add-method run's answers were sentences of what the
/// method gives). A silent greeter was left to the assessment's
/// word, which a small model gives for the code it reads. One that prints
/// now meets a requirement of an earlier assessment.
pub fn hold_to_speaking(
    mut requirements: Vec<Requirement>,
    goal: &str,
    text: &GoalText,
    checks: &[CheckRun],
    is_program_run: impl Fn(&str) -> bool,
    asks_for_tests: bool,
) -> Vec<Requirement> {
    let readings = text.readings();
    let Some(example) = text.agreed().or(readings.first().copied()) else {
        return requirements;
    };
    let every_answer_speaks = readings.len() >= 2 && readings.len() == text.prints.len();
    if asks_for_tests
        || !every_answer_speaks
        || !names_text(goal)
        || text.held(goal).is_some()
        || !crate::lang::called_names(goal).is_empty()
    {
        return requirements;
    }
    let programs = program_runs(checks, is_program_run);
    let Some(first) = programs.first() else {
        return requirements;
    };
    let printed = |check: &CheckRun| crate::tools::printed(&check.output);
    if let Some(speaking) = programs
        .iter()
        .find(|check| check.passed() && !spoken(&printed(check)).is_empty())
    {
        for requirement in requirements
            .iter_mut()
            .filter(|r| r.requirement == SPEAKING)
        {
            requirement.met = true;
            requirement.evidence = format!(
                "`{}` printed {:?}",
                speaking.command,
                cut(printed(speaking).trim(), 80)
            );
        }
        return requirements;
    }
    requirements.retain(|r| r.requirement != SPEAKING);
    requirements.push(Requirement {
        requirement: SPEAKING.into(),
        met: false,
        evidence: format!(
            "`{}` printed nothing; read apart from the code, the goal's words give a program \
             that prints every time it runs, such as {:?}",
            first.command,
            cut(example, 80)
        ),
        about_tests: false,
        about_output: true,
        shown_by: Some(ShownBy {
            command: first.command.clone(),
            expects: String::new(),
        }),
        file: None,
    });
    requirements
}

#[cfg(test)]
mod tests {
    use super::*;

    fn answered(prints: &[&str]) -> GoalText {
        GoalText {
            prints: prints.iter().map(|p| p.to_string()).collect(),
            asked: prints.len() as u32,
        }
    }

    fn run(command: &str, exit_code: i32, printed: &str) -> CheckRun {
        CheckRun {
            command: command.into(),
            exit_code: Some(exit_code),
            output: format!("$ {command}\nexit code {exit_code}\n--- stdout ---\n{printed}"),
            tests: None,
            wants_arguments: false,
        }
    }

    const HELLO: &str = "Write a hello world script";

    #[test]
    fn only_agreed_words_of_the_goal_are_held() {
        let hello = answered(&["Hello, World!", "Hello, world!"]);
        assert_eq!(hello.agreed(), Some("Hello, World!"));
        assert_eq!(hello.held(HELLO), Some("Hello, World!"));
        // An answer in code about output says the text it quotes.
        let code = answered(&["print('Hello, world!')", "Hello, World!"]);
        assert_eq!(code.readings(), ["Hello, world!", "Hello, World!"]);
        assert_eq!(code.held(HELLO), Some("Hello, world!"));
        // Agreed, and not the goal's words: a date the model made up.
        let date = answered(&["2023-04-14", "2023-04-14"]);
        assert_eq!(date.agreed(), Some("2023-04-14"));
        assert_eq!(date.held("Write a script that shows today's date"), None);
        // A goal that speaks of output or of saying gives a text that may
        // be printed only at times.
        let win = answered(&["You win!", "You win!"]);
        assert_eq!(
            win.held("Write a guessing game that says 'You win!' when it is won"),
            None
        );
        assert_eq!(
            win.held("Write a guessing game that prints You win! at the end"),
            None
        );
        assert_eq!(win.held("Write a You win! script"), Some("You win!"));
        // The goal's words, not one after another.
        assert_eq!(
            answered(&["hello world", "hello world"]).held("Write a world script that says hello"),
            None
        );
        // Two answers that disagree hold nothing, and a third is asked.
        let hi = answered(&["hi", "Hello!"]);
        assert_eq!(hi.agreed(), None);
        assert!(!hi.settled());
        assert_eq!(hi.held("Make a script that says hi"), None);
        // One said within the other is no agreement.
        assert_eq!(
            answered(&["Welcome to Rock-Paper-Scissors!", "Rock, paper, scissors"]).agreed(),
            None
        );
        assert_eq!(
            answered(&["", "Hello, World!", "hello world"]).agreed(),
            Some("Hello, World!")
        );
        // Two that say the goal gives no text settle it.
        assert!(answered(&["", " "]).settled());
        assert!(!answered(&["", "hi"]).settled());
    }

    #[test]
    fn a_program_that_prints_other_than_the_goals_text_is_not_done() {
        let text = answered(&["Hello, World!", "Hello, World!"]);
        let is_program = |command: &str| command.ends_with(".py");
        let silent = vec![run("python3 hello.py", 0, "")];
        let held = hold_to_goal_text(Vec::new(), HELLO, &text, &silent, is_program);
        assert_eq!(held.len(), 1);
        assert!(!held[0].met, "{held:?}");
        assert!(held[0].is_about_output());
        let shown = held[0].shown_by.as_ref().unwrap();
        assert_eq!(shown.command, "python3 hello.py");
        assert_eq!(shown.expects, "Hello, World!");

        let right = vec![
            run("python3 -m pytest -q", 0, "1 passed"),
            run("python3 hello.py", 0, "hello world\n"),
        ];
        let held = hold_to_goal_text(held, HELLO, &text, &right, is_program);
        assert_eq!(held.len(), 1, "{held:?}");
        assert!(held[0].met, "{held:?}");

        let failed = vec![run("python3 hello.py", 1, "Hello, World!")];
        assert!(!hold_to_goal_text(Vec::new(), HELLO, &text, &failed, is_program)[0].met);
    }

    #[test]
    fn nothing_is_held_without_a_program_run_or_a_text_of_the_goal() {
        let text = answered(&["Hello, World!", "Hello, World!"]);
        let tests = vec![run("python3 -m pytest -q", 0, "1 passed")];
        assert!(
            hold_to_goal_text(Vec::new(), HELLO, &text, &tests, |c| c.ends_with(".py")).is_empty()
        );
        let mut wanting = run("python3 hello.py", 1, "IndexError");
        wanting.wants_arguments = true;
        assert!(
            hold_to_goal_text(Vec::new(), HELLO, &text, &[wanting], |c| c.ends_with(".py"))
                .is_empty()
        );
        let welcome = answered(&[
            "Welcome to Rock-Paper-Scissors!",
            "Welcome to Rock-Paper-Scissors!",
        ]);
        let silent = vec![run("python3 rps.py", 0, "")];
        assert!(
            hold_to_goal_text(
                Vec::new(),
                "write a rock-paper-scissors game with tests",
                &welcome,
                &silent,
                |c| c.ends_with(".py")
            )
            .is_empty()
        );
    }

    #[test]
    fn a_program_that_prints_nothing_where_the_goals_words_give_a_text_is_not_done() {
        const GREETS: &str = "Make a small Python program that greets the world";
        let text = answered(&["Hello, world!", "hello world"]);
        assert_eq!(text.held(GREETS), None, "not the goal's words");
        let is_program = |command: &str| command.ends_with(".py");
        let silent = vec![
            run("python3 -m pytest -q", 0, "1 passed"),
            run("python3 greet.py", 0, "\n"),
        ];
        let held = hold_to_speaking(Vec::new(), GREETS, &text, &silent, is_program, false);
        assert_eq!(held.len(), 1, "{held:?}");
        assert!(!held[0].met);
        assert!(held[0].is_about_output());
        assert_eq!(
            held[0].shown_by.as_ref().unwrap().command,
            "python3 greet.py"
        );
        assert!(held[0].evidence.contains("printed nothing"), "{held:?}");
        // Once it prints, the requirement of the earlier assessment is met.
        let speaking = vec![run("python3 greet.py", 0, "Hi there, world\n")];
        let held = hold_to_speaking(held, GREETS, &text, &speaking, is_program, false);
        assert_eq!(held.len(), 1, "{held:?}");
        assert!(held[0].met, "{held:?}");
        // Answers that disagree and each give a text hold it too.
        let apart = answered(&["Hello, world!", "Hi!", "Greetings, world"]);
        assert_eq!(
            hold_to_speaking(Vec::new(), GREETS, &apart, &silent, is_program, false).len(),
            1
        );
        // A goal that asks for tests, an answer that the goal gives no
        // text, a text the goal's words are (held by hold_to_goal_text)
        // and no program run hold nothing here.
        assert!(hold_to_speaking(Vec::new(), GREETS, &text, &silent, is_program, true).is_empty());
        let none = answered(&["Hello, world!", "", "Hi!"]);
        assert!(hold_to_speaking(Vec::new(), GREETS, &none, &silent, is_program, false).is_empty());
        let method = "Add a perimeter() method to the Rectangle class in shapes.py";
        assert!(hold_to_speaking(Vec::new(), method, &text, &silent, is_program, false).is_empty());
        let hello = vec![run("python3 hello.py", 0, "")];
        assert!(hold_to_speaking(Vec::new(), HELLO, &text, &hello, is_program, false).is_empty());
        let tests = vec![run("python3 -m pytest -q", 0, "1 passed")];
        assert!(hold_to_speaking(Vec::new(), GREETS, &text, &tests, is_program, false).is_empty());
    }
}
