//! (b) of "done?", continued: what the program the goal asks for prints
//! every time it runs, when the goal's own words are that text ("a hello
//! world script"), asked once a run from the goal alone, at the first
//! assessment whose checks ran a program (see `crate::state::goal_text`).

use super::assess::json_of;
use super::samples::text_schema;
use crate::agent::Agent;
use crate::state::Event;
use crate::state::goal_text::GoalText;
use crate::state::verdict::{self, CheckRun};
use crate::store::{Durability, StoreError};

/// The questions, each in other words, asked apart from the answers
/// before: the key of the answer and the question. Each says that the
/// goal may give no text: what it prints may depend on input or chance.
fn question(asked: u32) -> (&'static str, &'static str) {
    match asked {
        0 => (
            "always_prints",
            "No tool call now. From the GOAL's words alone (not from any code, nor any \
             output), write the exact text the program the GOAL asks for prints every time it \
             runs (the text, not code). When the GOAL's words do not give that text (what it \
             prints depends on its input, on chance or on anything else, or the GOAL does not \
             say), answer \"\". Answer with JSON: {\"always_prints\": \"...\"}",
        ),
        1 => (
            "shown_text",
            "No tool call now. A user runs the program the GOAL asks for, once it is done, and \
             gives it no input. Judging by the GOAL's words only, is there one exact text it \
             must show? Write that text (not code), or \"\" when the GOAL's words leave it \
             open. Answer with JSON: {\"shown_text\": \"...\"}",
        ),
        _ => (
            "every_time",
            "No tool call now. The GOAL is done and a user starts its program. Going by the \
             GOAL's words alone, write the exact text (not code) the program shows every time, \
             or \"\" when they do not say. Answer with JSON: {\"every_time\": \"...\"}",
        ),
    }
}

impl Agent<'_> {
    /// Whether `command` runs a program of the workspace: not tests, and
    /// a word of it is a source file there.
    pub(super) fn runs_program(&self, command: &str) -> bool {
        !self.languages.iter().any(|l| l.runs_tests(command))
            && command.split_whitespace().skip(1).any(|word| {
                self.languages.iter().any(|l| l.owns(word)) && self.tools.text(word).is_some()
            })
    }

    /// What the program the goal asks for prints every time it runs, as
    /// the goal's words give it: asked once a run, when `checks` ran a
    /// program, the goal may name the text (see
    /// [`crate::state::goal_text::names_text`]), does not speak of tests
    /// and names no option (the stated outputs hold those); kept after. `Ok(None)`: the run ended meanwhile.
    pub(super) async fn read_goal_text(
        &mut self,
        checks: &[CheckRun],
    ) -> Result<Option<GoalText>, StoreError> {
        if let Some(text) = &self.state().goal_text {
            return Ok(Some(text.clone()));
        }
        let goal = self.state().goal.clone();
        // A goal that speaks of tests is shown by them: asked what its
        // program prints, w1's calc-fix model answered with the goal's own
        // sentence ("The tests in test_calc.py fail. Fix ...") twice, and
        // a cycle put a print of it into calc.py.
        if !crate::state::goal_text::names_text(&goal)
            || self.speaks_of_tests()
            || !verdict::named_options(&goal).is_empty()
            || !checks.iter().any(|check| self.runs_program(&check.command))
        {
            return Ok(Some(GoalText::default()));
        }
        let head = self.head();
        let mut text = GoalText::default();
        let (mut usage, mut retries) = (crate::chat::Usage::default(), 0);
        while text.asked < 2 || !text.settled() {
            let (key, ask) = question(text.asked);
            let Some(reply) = self
                .ask_answer(format!("{head}\n\n{ask}"), text_schema(key))
                .await?
            else {
                return Ok(None);
            };
            text.asked += 1;
            usage += reply.usage;
            retries += reply.retries;
            let answer = json_of(&reply.content)
                .ok()
                .and_then(|value| value[key].as_str().map(str::to_string));
            text.prints.extend(answer);
        }
        self.record(
            Event::GoalTextRead {
                text: text.clone(),
                usage,
                retries,
            },
            Durability::Lazy,
        )?;
        Ok(Some(text))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_question_allows_no_text_and_names_its_key() {
        let asked: Vec<(&str, &str)> = (0..3).map(question).collect();
        let keys: Vec<&str> = asked.iter().map(|(key, _)| *key).collect();
        assert_eq!(keys, ["always_prints", "shown_text", "every_time"]);
        for (key, ask) in &asked {
            assert!(ask.contains("\"\""), "{ask}");
            assert!(ask.contains("GOAL's words"), "{ask}");
            assert!(ask.ends_with(&format!("{{\"{key}\": \"...\"}}")), "{ask}");
        }
    }
}
