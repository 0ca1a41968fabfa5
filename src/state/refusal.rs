//! The kinds of refusal: why a call did not run, as the log records it and
//! the round reads it (the message the model was shown is beside it). The
//! round refuses a call before it runs; a tool refuses while it runs
//! (`ActionOutcome::refusal`).

use serde::{Deserialize, Serialize};

/// Why a call was refused: by the round before it ran, or by its tool.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RefusalKind {
    /// Recorded by a runner that did not keep the kind (an older log).
    #[default]
    Unknown,
    /// The arguments were missing, of the wrong type, or not an object.
    BadArguments,
    /// There is no tool of that name.
    UnknownTool,
    /// The arguments or the content were over the size limit.
    TooLarge,
    /// Past the calls of one reply that run.
    PastCallLimit,
    /// The subtask the call was meant for has ended.
    SubtaskEnded,
    /// `mark_subtask_complete` with no active subtask left.
    NoActiveSubtask,
    /// A whole write over a file whose content the model has not seen.
    UnseenFile,
    /// A write whose content holds the mark of shortened text.
    ShortenedContent,
    /// The file's language refused the content.
    LanguageRefused,
    /// A write or an edit that drops or alters an assert of a test file
    /// that was there before the run.
    TestsKept,
    /// A write or an edit of a test file that asserts a call the goal's
    /// own words give the value of equal to another value.
    AgainstGoal,
    /// A write or an edit that removes a top-level definition of a file
    /// that was there before the run, which the goal does not name, or a
    /// function the goal's own words say what it returns, which no other
    /// file defines.
    DefinitionsKept,
    /// A write or an edit that changes or removes a function, class or
    /// method of the code a goal of tests asks them of, which was there
    /// before the run.
    CodeUnderTestKept,
    /// A write that leaves the program a check runs with nothing to run
    /// (only definitions), while no test checks it; refused once.
    RunsNothing,
    /// A write that defines a function the goal says returns a value with
    /// no `return` of one (it prints what it should give back); refused
    /// once a subtask.
    ReturnsNothing,
    /// The subtask marked done before anything was done for it.
    NothingDone,
    /// A check subtask marked done while its command has not passed.
    CheckNotPassed,
    /// A subtask that writes a file marked done while the file is not
    /// there.
    FileMissing,
    /// The subtask given up after nothing but a refused write.
    GaveUpTooSoon,
    /// A cycle's change of a file marked done while no file has changed
    /// since it began.
    NothingChanged,
    /// A change of a file marked done while a parameter it gave a function
    /// is given by no call of that function in the file; refused once.
    Unwired,
    /// A completion while the last write's run printed an option of the
    /// goal's back (the program took it for an argument); refused once.
    OptionTaken,
    /// A completion while the last write's run with an option of the
    /// goal's printed what the program prints without it; refused once.
    OptionIgnored,
    /// A completion while the last write's runs found a program that ran
    /// before the plan failing, or printing otherwise than it did then;
    /// refused once.
    KeptBroken,
    /// A package's binder (`__init__.py`) marked written while it does
    /// not give a name of a module of the package the goal names;
    /// refused once.
    Unexported,
    /// A test file's subtask marked done while a function of the code the
    /// goal asks tests of, which the subtask names, is called by no test;
    /// refused once a subtask.
    Untested,
    /// A path outside the workspace, or inside a folder that is off limits.
    PathRefused,
    /// The file or folder does not exist.
    NoSuchPath,
    /// A folder or device where a file was asked for, or a file that is not
    /// text where text was.
    NotAFile,
    /// The command's program or options are not allowed.
    CommandNotAllowed,
    /// The command needs the network, which commands do not have.
    NeedsNetwork,
    /// The program is not installed.
    NotInstalled,
    /// `search` with a pattern that is not a valid regular expression.
    BadPattern,
    /// `edit_file` whose `old` text is empty, not in the file, or in it
    /// more than once.
    EditNoMatch,
    /// `edit_file` sent again: the file holds its `new` already, so nothing
    /// was changed. What the edit was to make is there: it counts as done
    /// for the subtask, not as a refused write.
    EditMadeBefore,
}

impl RefusalKind {
    /// The call was well formed and refused for what it held (a file not
    /// written, a completion not accepted): the model needs to hear why,
    /// not the tools' schemas again.
    pub fn is_about_content(self) -> bool {
        self.is_refused_write()
            || matches!(
                self,
                RefusalKind::NothingDone
                    | RefusalKind::CheckNotPassed
                    | RefusalKind::FileMissing
                    | RefusalKind::GaveUpTooSoon
                    | RefusalKind::NothingChanged
                    | RefusalKind::Unwired
                    | RefusalKind::OptionTaken
                    | RefusalKind::OptionIgnored
                    | RefusalKind::KeptBroken
                    | RefusalKind::Unexported
                    | RefusalKind::Untested
                    | RefusalKind::EditMadeBefore
            )
    }

    /// A write that was refused, not tried: changing its content is the
    /// way on.
    pub fn is_refused_write(self) -> bool {
        matches!(
            self,
            RefusalKind::UnseenFile
                | RefusalKind::ShortenedContent
                | RefusalKind::LanguageRefused
                | RefusalKind::TestsKept
                | RefusalKind::AgainstGoal
                | RefusalKind::DefinitionsKept
                | RefusalKind::CodeUnderTestKept
                | RefusalKind::RunsNothing
                | RefusalKind::ReturnsNothing
                | RefusalKind::EditNoMatch
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_kind_survives_the_log_and_an_old_record_reads_as_unknown() {
        let text = serde_json::to_string(&RefusalKind::LanguageRefused).unwrap();
        assert_eq!(text, "\"language_refused\"");
        let back: RefusalKind = serde_json::from_str(&text).unwrap();
        assert_eq!(back, RefusalKind::LanguageRefused);
        assert_eq!(RefusalKind::default(), RefusalKind::Unknown);
    }

    #[test]
    fn a_rejection_logged_before_kinds_were_kept_still_loads() {
        let old = r#"{"event":"call_rejected","call":0,"tool":"x","error":"e"}"#;
        let event: crate::state::Event = serde_json::from_str(old).unwrap();
        let crate::state::Event::CallRejected { kind, error, .. } = event else {
            panic!("{event:?}");
        };
        assert_eq!((kind, error.as_str()), (RefusalKind::Unknown, "e"));
    }

    #[test]
    fn only_refusals_of_content_skip_the_schemas() {
        assert!(RefusalKind::UnseenFile.is_about_content());
        assert!(RefusalKind::CheckNotPassed.is_about_content());
        assert!(!RefusalKind::BadArguments.is_about_content());
        assert!(!RefusalKind::UnknownTool.is_about_content());
        assert!(!RefusalKind::NothingDone.is_refused_write());
        assert!(RefusalKind::ShortenedContent.is_refused_write());
        assert!(RefusalKind::EditNoMatch.is_refused_write());
        assert!(!RefusalKind::EditMadeBefore.is_refused_write());
        assert!(!RefusalKind::NotInstalled.is_refused_write());
    }
}
