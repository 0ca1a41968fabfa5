//! The task tree: Goal → Task → Subtask, each node with a status, and the
//! cursor that points at the subtask being worked on.

use serde::{Deserialize, Serialize};

/// Where a node of the tree stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    Pending,
    InProgress,
    Completed,
    Failed,
}

impl Status {
    /// Completed or failed: nothing more will happen to this node.
    pub fn is_ended(self) -> bool {
        matches!(self, Status::Completed | Status::Failed)
    }
}

/// A task as the planner proposes it, before it has any status.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TaskPlan {
    pub description: String,
    pub subtasks: Vec<String>,
    /// What kind of step each subtask is, in the same order, when the
    /// planner knows (a plan of files); missing ones are free.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub kinds: Vec<SubtaskKind>,
}

/// What kind of step a subtask is, set by the planner: the round reads
/// this, never the description's prose.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum SubtaskKind {
    /// Write this file.
    Write { path: String },
    /// Make this command exit with code 0: the subtask is done when it
    /// does, not when the model says so.
    Check { cmd: String },
    /// Make this command exit with code 0 and print `expects`: how the
    /// completion check found a requirement unmet, done again in its cycle
    /// until the output holds what it must.
    Show { cmd: String, expects: String },
    /// Anything else, in the description's words.
    #[default]
    Free,
}

impl SubtaskKind {
    pub fn is_free(&self) -> bool {
        *self == SubtaskKind::Free
    }
}

/// One concrete step that needs a tool.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Subtask {
    pub description: String,
    pub status: Status,
    /// Why it was marked complete or failed, in the model's words.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// What kind of step it is (see [`SubtaskKind`]).
    #[serde(default, skip_serializing_if = "SubtaskKind::is_free")]
    pub kind: SubtaskKind,
}

/// A high-level objective of the goal.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Task {
    pub description: String,
    pub status: Status,
    pub subtasks: Vec<Subtask>,
}

/// The active task and subtask, by index.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Cursor {
    pub task: usize,
    pub subtask: usize,
}

/// The tasks of a goal and the cursor into them.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tree {
    pub tasks: Vec<Task>,
    /// `None` before planning and once every subtask has ended.
    pub cursor: Option<Cursor>,
}

impl Tree {
    /// A fresh tree from a plan, with the cursor on the first subtask.
    pub fn from_plan(plan: &[TaskPlan]) -> Tree {
        let tasks = plan
            .iter()
            .map(|task| Task {
                description: task.description.clone(),
                status: Status::Pending,
                subtasks: task
                    .subtasks
                    .iter()
                    .enumerate()
                    .map(|(at, description)| Subtask {
                        description: description.clone(),
                        status: Status::Pending,
                        reason: None,
                        kind: task.kinds.get(at).cloned().unwrap_or_default(),
                    })
                    .collect(),
            })
            .collect();
        let mut tree = Tree {
            tasks,
            cursor: None,
        };
        tree.advance();
        tree
    }

    pub fn is_planned(&self) -> bool {
        !self.tasks.is_empty()
    }

    /// Every subtask has ended (completed or failed).
    pub fn is_finished(&self) -> bool {
        self.is_planned() && self.cursor.is_none()
    }

    /// Every subtask completed successfully.
    pub fn is_achieved(&self) -> bool {
        self.is_finished()
            && self
                .tasks
                .iter()
                .all(|task| task.status == Status::Completed)
    }

    pub fn active(&self) -> Option<(&Task, &Subtask)> {
        let cursor = self.cursor?;
        let task = self.tasks.get(cursor.task)?;
        Some((task, task.subtasks.get(cursor.subtask)?))
    }

    /// Makes subtask `subtask` of task `task` a check of `cmd`, its
    /// description naming `cmd` where it named the command before, and
    /// `input`, when given, as the sample to write before it runs.
    pub fn give_check(&mut self, task: usize, subtask: usize, cmd: &str, input: Option<&str>) {
        let Some(subtask) = self
            .tasks
            .get_mut(task)
            .and_then(|task| task.subtasks.get_mut(subtask))
        else {
            return;
        };
        if let SubtaskKind::Check { cmd: before } = &subtask.kind {
            subtask.description = subtask
                .description
                .replace(&format!("`{before}`"), &format!("`{cmd}`"));
        }
        if let Some(input) = input {
            subtask.description.push_str(&format!(
                ". First write {input}: a small sample input it reads, with content whose right \
                 answer you know"
            ));
        }
        subtask.kind = SubtaskKind::Check {
            cmd: cmd.to_string(),
        };
    }

    /// Ends the active subtask and moves the cursor to the next pending one.
    /// Returns the cursor of the subtask that ended.
    pub fn end_active(&mut self, success: bool, reason: &str) -> Option<Cursor> {
        let cursor = self.cursor?;
        let task = self.tasks.get_mut(cursor.task)?;
        let subtask = task.subtasks.get_mut(cursor.subtask)?;
        subtask.status = if success {
            Status::Completed
        } else {
            Status::Failed
        };
        subtask.reason = Some(reason.to_string());
        if task.subtasks.iter().all(|s| s.status.is_ended()) {
            task.status = if task.subtasks.iter().all(|s| s.status == Status::Completed) {
                Status::Completed
            } else {
                Status::Failed
            };
        }
        self.advance();
        Some(cursor)
    }

    /// Adds a task after the others (a new cycle of work) and points the
    /// cursor at it.
    pub fn push(&mut self, plan: &TaskPlan) {
        let Tree { tasks, .. } = Tree::from_plan(std::slice::from_ref(plan));
        self.tasks.extend(tasks);
        self.advance();
    }

    /// The subtasks that failed, with their reasons.
    pub fn failures(&self) -> Vec<(String, String)> {
        self.tasks
            .iter()
            .flat_map(|task| &task.subtasks)
            .filter(|subtask| subtask.status == Status::Failed)
            .map(|subtask| {
                (
                    subtask.description.clone(),
                    subtask.reason.clone().unwrap_or_default(),
                )
            })
            .collect()
    }

    /// (ended, total) subtasks.
    pub fn progress(&self) -> (usize, usize) {
        let all = self.tasks.iter().flat_map(|task| &task.subtasks);
        let total = all.clone().count();
        (all.filter(|s| s.status.is_ended()).count(), total)
    }

    fn advance(&mut self) {
        self.cursor = None;
        for (t, task) in self.tasks.iter_mut().enumerate() {
            if let Some(s) = task.subtasks.iter().position(|s| !s.status.is_ended()) {
                task.status = Status::InProgress;
                task.subtasks[s].status = Status::InProgress;
                self.cursor = Some(Cursor {
                    task: t,
                    subtask: s,
                });
                return;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use pretty_assertions::assert_eq;

    fn plan() -> Vec<TaskPlan> {
        vec![
            TaskPlan {
                kinds: Vec::new(),
                description: "game".into(),
                subtasks: vec!["write game.py".into(), "run game.py".into()],
            },
            TaskPlan {
                kinds: Vec::new(),
                description: "tests".into(),
                subtasks: vec!["write test_game.py".into()],
            },
        ]
    }

    #[test]
    fn a_new_tree_points_at_the_first_subtask() {
        let tree = Tree::from_plan(&plan());
        assert_eq!(
            tree.cursor,
            Some(Cursor {
                task: 0,
                subtask: 0
            })
        );
        assert_eq!(tree.tasks[0].status, Status::InProgress);
        assert_eq!(tree.tasks[0].subtasks[0].status, Status::InProgress);
        assert_eq!(tree.tasks[1].status, Status::Pending);
        assert!(!tree.is_finished());
    }

    #[test]
    fn ending_subtasks_walks_the_tree_and_completes_tasks() {
        let mut tree = Tree::from_plan(&plan());
        assert_eq!(
            tree.end_active(true, "written"),
            Some(Cursor {
                task: 0,
                subtask: 0
            })
        );
        assert_eq!(tree.cursor.map(|c| (c.task, c.subtask)), Some((0, 1)));
        tree.end_active(true, "ran");
        assert_eq!(tree.tasks[0].status, Status::Completed);
        assert_eq!(tree.cursor.map(|c| (c.task, c.subtask)), Some((1, 0)));
        assert_eq!(tree.tasks[1].status, Status::InProgress);
        tree.end_active(true, "done");
        assert!(tree.is_finished());
        assert!(tree.is_achieved());
        assert_eq!(tree.progress(), (3, 3));
        assert_eq!(tree.end_active(true, "again"), None);
    }

    #[test]
    fn a_failed_subtask_fails_its_task_and_the_goal_but_the_run_goes_on() {
        let mut tree = Tree::from_plan(&plan());
        tree.end_active(false, "python missing");
        assert_eq!(tree.cursor.map(|c| (c.task, c.subtask)), Some((0, 1)));
        tree.end_active(true, "ok");
        assert_eq!(tree.tasks[0].status, Status::Failed);
        tree.end_active(true, "ok");
        assert!(tree.is_finished());
        assert!(!tree.is_achieved());
        assert_eq!(
            tree.failures(),
            vec![("write game.py".to_string(), "python missing".to_string())]
        );
    }

    #[test]
    fn a_pushed_task_reopens_a_finished_tree_at_its_first_subtask() {
        let mut tree = Tree::from_plan(&plan());
        for _ in 0..3 {
            tree.end_active(true, "done");
        }
        assert!(tree.is_finished());
        tree.push(&TaskPlan {
            description: "what is missing".into(),
            subtasks: vec!["write mul".into()],
            kinds: Vec::new(),
        });
        assert!(!tree.is_finished());
        assert_eq!(tree.cursor.map(|c| (c.task, c.subtask)), Some((2, 0)));
        assert_eq!(tree.tasks[0].status, Status::Completed);
        tree.end_active(true, "written");
        assert!(tree.is_achieved());
    }

    #[test]
    fn an_empty_tree_is_neither_planned_nor_finished() {
        let tree = Tree::default();
        assert!(!tree.is_planned());
        assert!(!tree.is_finished());
        assert!(tree.active().is_none());
    }
}
