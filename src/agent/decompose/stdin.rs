//! A goal whose program reads its standard input is checked with input:
//! a command gets no keyboard, so the plan's run of the program reads a
//! file of the workspace after `<` (see `tools::policy::input_file`).
//! Without it the check of such a program either stops at the read
//! (`EOFError`) or, reading an empty input, passes having shown nothing;
//! and a program steered to its command line instead is not the program
//! the goal asked for.

use super::files::check_subtask;
use crate::agent::complete::same_command;
use crate::state::{SubtaskKind, TaskPlan};

/// The names the check's input file is given, the first that is free.
const INPUTS: [&str; 3] = ["input.txt", "sample_input.txt", "stdin_sample.txt"];

/// What a planned write of a program read on its standard input adds.
pub(super) fn reads_stdin(command: &str) -> String {
    format!(
        ". It reads what it works on from its standard input, not from its command line (the \
         check runs `{command}`)"
    )
}

/// `tasks` for a goal whose program reads its standard input (the caller
/// decides, by its words): each check that runs a program with nothing
/// after it (`run_command` of a path gives that run, `python3 vowels.py`)
/// reads a sample input file after `<`, the first of [`INPUTS`] that
/// neither the workspace (`exists`) nor the plan holds, written by a
/// subtask before the check, and the planned write of that program says
/// so.
pub fn to_standard_input(
    tasks: &mut [TaskPlan],
    exists: impl Fn(&str) -> bool,
    run_command: impl Fn(&str) -> Option<String>,
) {
    let planned = super::planned_writes(tasks);
    let Some(input) = INPUTS
        .into_iter()
        .find(|name| !exists(name) && !planned.iter().any(|path| path == name))
    else {
        return;
    };
    let mut programs: Vec<(String, String)> = Vec::new();
    for task in tasks.iter_mut() {
        let mut inserts: Vec<(String, String)> = Vec::new();
        for (subtask, kind) in task.subtasks.iter_mut().zip(task.kinds.iter_mut()) {
            let SubtaskKind::Check { cmd } = kind else {
                continue;
            };
            let Some(program) = cmd
                .split_whitespace()
                .last()
                .filter(|path| run_command(path).is_some_and(|run| same_command(&run, cmd)))
                .map(str::to_string)
            else {
                continue;
            };
            let given = format!("{cmd} < {input}");
            *subtask = check_subtask(&given);
            inserts.push((given.clone(), program.clone()));
            task.description = task
                .description
                .replace(&format!("`{cmd}`"), &format!("`{given}`"));
            *cmd = given.clone();
            programs.push((program, given));
        }
        // The sample's write, before the check that reads it: short, so
        // that what the program must print of it is plain. t38's vowels
        // wrote three lines for a program that reads one, and neither of
        // the model's readings of them foresaw the right count.
        for (given, program) in inserts {
            let Some(at) = task
                .kinds
                .iter()
                .position(|kind| matches!(kind, SubtaskKind::Check { cmd } if *cmd == given))
            else {
                continue;
            };
            task.kinds.insert(
                at,
                SubtaskKind::Write {
                    path: input.to_string(),
                },
            );
            task.subtasks.insert(
                at,
                format!(
                    "Write {input}: what `{given}` gives {program} on its standard input, as the \
                     goal describes it and as short as it allows (one line of a few words when \
                     {program} reads a line), whose right output you know"
                ),
            );
        }
    }
    for task in tasks.iter_mut() {
        for (subtask, kind) in task.subtasks.iter_mut().zip(&task.kinds) {
            let SubtaskKind::Write { path } = kind else {
                continue;
            };
            if let Some((_, given)) = programs.iter().find(|(program, _)| program == path) {
                let said = reads_stdin(given);
                if !subtask.contains(&said) {
                    subtask.push_str(&said);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plan() -> Vec<TaskPlan> {
        vec![TaskPlan {
            description: "Write vowels.py, then run `python3 vowels.py`".into(),
            subtasks: vec![
                "Write vowels.py: counts vowels".into(),
                check_subtask("python3 vowels.py"),
            ],
            kinds: vec![
                SubtaskKind::Write {
                    path: "vowels.py".into(),
                },
                SubtaskKind::Check {
                    cmd: "python3 vowels.py".into(),
                },
            ],
        }]
    }

    fn python_run(path: &str) -> Option<String> {
        path.ends_with(".py").then(|| format!("python3 {path}"))
    }

    #[test]
    fn a_bare_run_of_the_program_reads_a_sample_on_its_standard_input() {
        let mut tasks = plan();
        to_standard_input(&mut tasks, |path| path == "input.txt", python_run);
        let given = "python3 vowels.py < sample_input.txt";
        assert_eq!(tasks[0].kinds[2], SubtaskKind::Check { cmd: given.into() });
        assert_eq!(tasks[0].subtasks[2], check_subtask(given));
        assert_eq!(
            tasks[0].description,
            format!("Write vowels.py, then run `{given}`")
        );
        assert_eq!(
            tasks[0].subtasks[0],
            format!("Write vowels.py: counts vowels{}", reads_stdin(given))
        );
        // The sample's write comes before the check, and no other is
        // added for it.
        assert_eq!(
            tasks[0].kinds[1],
            SubtaskKind::Write {
                path: "sample_input.txt".into()
            }
        );
        assert!(
            tasks[0].subtasks[1].starts_with(
                "Write sample_input.txt: what `python3 vowels.py < sample_input.txt` gives \
                 vowels.py on its standard input"
            ),
            "{:?}",
            tasks[0].subtasks
        );
        let planned = tasks.clone();
        super::super::inputs_of_checks(&mut tasks, |_| false, |path| path.ends_with(".py"));
        assert_eq!(tasks, planned);
    }

    #[test]
    fn tests_and_runs_with_arguments_are_left_as_they_are() {
        for check in ["python3 -m pytest -q", "python3 vowels.py words.txt"] {
            let mut tasks = plan();
            tasks[0].kinds[1] = SubtaskKind::Check { cmd: check.into() };
            let before = tasks.clone();
            to_standard_input(&mut tasks, |_| false, python_run);
            assert_eq!(tasks, before, "{check}");
        }
    }
}
