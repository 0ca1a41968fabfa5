//! `memory.json`: what carries over from one run to the next in a workspace
//! (a resume or a new goal): lessons from the reflection at the end of a run,
//! mistakes (failed tool calls, deduplicated), and the model's notes.

use serde::{Deserialize, Serialize};

/// Lessons, mistakes and notes kept; older ones make way.
const KEPT: usize = 30;
/// Shown under LESSONS in the context block.
const SHOWN_LESSONS: usize = 5;
const SHOWN_MISTAKES: usize = 5;
/// A mistake is keyed by its first line, cut to this length, so the same
/// error with a different tail counts once.
const MISTAKE_KEY: usize = 160;

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Memory {
    #[serde(default)]
    pub lessons: Vec<Lesson>,
    #[serde(default)]
    pub mistakes: Vec<Mistake>,
    #[serde(default)]
    pub notes: Vec<String>,
    /// The time of the first record of the log this memory follows, and
    /// the last seq of it that it holds (see `store::project`).
    #[serde(default)]
    pub log: String,
    #[serde(default)]
    pub seq: u64,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Lesson {
    pub goal: String,
    pub text: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Mistake {
    pub tool: String,
    pub error: String,
    pub count: u32,
}

impl Memory {
    /// Records a failed tool call; the same error again only counts.
    pub fn mistake(&mut self, tool: &str, error: &str) {
        let key = error_key(error);
        if let Some(known) = self
            .mistakes
            .iter_mut()
            .find(|m| m.tool == tool && error_key(&m.error) == key)
        {
            known.count += 1;
            return;
        }
        self.mistakes.push(Mistake {
            tool: tool.to_string(),
            error: key,
            count: 1,
        });
        trim(&mut self.mistakes);
    }

    /// Adds lessons of a goal, skipping ones already kept.
    pub fn learn(&mut self, goal: &str, lessons: &[String]) {
        for text in lessons {
            let text = text.trim();
            if !text.is_empty() && !self.lessons.iter().any(|l| l.text == text) {
                self.lessons.push(Lesson {
                    goal: goal.to_string(),
                    text: text.to_string(),
                });
            }
        }
        trim(&mut self.lessons);
    }

    /// Keeps the run's notes for the next run.
    pub fn keep_notes(&mut self, notes: &[String]) {
        for note in notes {
            if !self.notes.contains(note) {
                self.notes.push(note.clone());
            }
        }
        trim(&mut self.notes);
    }

    /// No lesson, mistake or note (whatever log it follows).
    pub fn is_empty(&self) -> bool {
        self.lessons.is_empty() && self.mistakes.is_empty() && self.notes.is_empty()
    }

    /// The LESSONS part of the context block: the latest lessons, the
    /// mistakes made most often, and notes of earlier runs.
    pub fn render(&self) -> Option<String> {
        if self.is_empty() {
            return None;
        }
        let mut lines = Vec::new();
        let start = self.lessons.len().saturating_sub(SHOWN_LESSONS);
        lines.extend(
            self.lessons[start..]
                .iter()
                .map(|l| format!("- {}", l.text)),
        );
        let mut mistakes: Vec<&Mistake> = self.mistakes.iter().collect();
        mistakes.sort_by_key(|m| std::cmp::Reverse(m.count));
        lines.extend(
            mistakes
                .iter()
                .take(SHOWN_MISTAKES)
                .map(|m| format!("- avoid ({} failed {}x): {}", m.tool, m.count, m.error)),
        );
        let start = self.notes.len().saturating_sub(SHOWN_LESSONS);
        lines.extend(self.notes[start..].iter().map(|n| format!("- note: {n}")));
        Some(lines.join("\n"))
    }
}

fn error_key(error: &str) -> String {
    let line = error.lines().next().unwrap_or("").trim();
    line.chars().take(MISTAKE_KEY).collect()
}

fn trim<T>(items: &mut Vec<T>) {
    if items.len() > KEPT {
        items.drain(..items.len() - KEPT);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mistakes_are_deduplicated_and_counted() {
        let mut memory = Memory::default();
        memory.mistake("run_cmd", "pytest: exit code 1: assert 1 == 2\nmore");
        memory.mistake("run_cmd", "pytest: exit code 1: assert 1 == 2\nother tail");
        memory.mistake("write_file", "pytest: exit code 1: assert 1 == 2");
        assert_eq!(memory.mistakes.len(), 2);
        assert_eq!(memory.mistakes[0].count, 2);
        let shown = memory.render().unwrap();
        assert!(
            shown.contains("avoid (run_cmd failed 2x): pytest: exit code 1"),
            "{shown}"
        );
    }

    #[test]
    fn lessons_and_notes_are_kept_once_and_bounded() {
        let mut memory = Memory::default();
        assert_eq!(memory.render(), None);
        memory.learn("g", &["run the tests after each change".into(), " ".into()]);
        memory.learn("g", &["run the tests after each change".into()]);
        assert_eq!(memory.lessons.len(), 1);
        for i in 0..50 {
            memory.keep_notes(&[format!("n{i}")]);
        }
        assert_eq!(memory.notes.len(), KEPT);
        assert_eq!(memory.notes.last().map(String::as_str), Some("n49"));
        assert!(memory.render().unwrap().starts_with("- run the tests"));
    }
}
