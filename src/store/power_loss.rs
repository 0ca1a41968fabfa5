//! The store on a disk that loses power (and fails writes) at random points,
//! driven by proptest. After every cut, opening the store either refuses
//! with the corruption message or loads the replay of a prefix of what was
//! appended, a prefix that holds every record the store had reported
//! durable. It never loads a wrong state.

use std::path::Path;

use pretty_assertions::assert_eq;
use proptest::prelude::*;

use super::sim::SimDisk;
use super::*;
use crate::state::{Event, Outcome, State};

#[derive(Debug, Clone)]
enum Op {
    Append {
        sync: bool,
        event: Box<Event>,
    },
    Checkpoint,
    Close,
    /// The process dies (kill -9) and a new one opens the store.
    Restart,
    /// The machine loses power; a new process opens the store.
    PowerCut {
        seed: u64,
    },
    /// The `n`-th next disk operation fails with `errno`.
    Fail {
        n: u64,
        errno: i32,
    },
}

/// Short texts, and long ones with newlines, quotes and braces (escaped in
/// the log's lines), made from a seed: a regex strategy this long is slow.
fn text() -> impl Strategy<Value = String> {
    prop_oneof![
        4 => "[a-z ]{0,40}",
        1 => (200usize..1500, any::<u64>()).prop_map(|(len, seed)| {
            let mut rng = fastrand::Rng::with_seed(seed);
            let alphabet = ['a', 'b', ' ', '\n', '"', '{', '}', 'é'];
            (0..len).map(|_| alphabet[rng.usize(..alphabet.len())]).collect()
        }),
    ]
}

fn event() -> impl Strategy<Value = Event> {
    prop_oneof![
        (text(), 1u32..30).prop_map(|(goal, max_rounds)| Event::RunStarted {
            goal,
            model: "m".into(),
            max_rounds,
            num_ctx: 16384,
            host: None,
            api: None,
            tool_mode: None,
        }),
        (1u32..100).prop_map(|round| Event::RoundStarted {
            round,
            missing: Vec::new(),
        }),
        text().prop_map(|text| Event::Noted { call: 0, text }),
        text().prop_map(|reason| Event::RunEnded {
            outcome: Outcome::Stopped,
            reason,
        }),
    ]
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        12 => (any::<bool>(), event()).prop_map(|(sync, event)| Op::Append {
            sync,
            event: Box::new(event),
        }),
        4 => Just(Op::Checkpoint),
        1 => Just(Op::Close),
        1 => Just(Op::Restart),
        2 => any::<u64>().prop_map(|seed| Op::PowerCut { seed }),
        1 => (1u64..12, prop_oneof![Just(libc::ENOSPC), Just(libc::EIO)])
            .prop_map(|(n, errno)| Op::Fail { n, errno }),
    ]
}

/// What the test knows: the events the store accepted, in order, and how
/// many of them it reported durable.
#[derive(Default)]
struct Truth {
    events: Vec<Event>,
    durable: usize,
    /// An event whose append failed after its line may have been written
    /// whole (the sync failed, not the write).
    maybe: Option<Event>,
}

impl Truth {
    fn replay(&self, n: usize) -> State {
        let all: Vec<&Event> = self.events.iter().chain(self.maybe.as_ref()).collect();
        let records: Vec<Record> = all[..n]
            .iter()
            .enumerate()
            .map(|(i, event)| Record {
                seq: i as u64 + 1,
                ts: "t".into(),
                event: (*event).clone(),
            })
            .collect();
        State::replay(&records)
    }

    /// Checks a loaded state: the replay of a prefix of at least `least`
    /// events. The prefix becomes the truth.
    fn accept(&mut self, state: &State, least: usize) {
        let n = state.last_seq as usize;
        let most = self.events.len() + usize::from(self.maybe.is_some());
        assert!(
            (least..=most).contains(&n),
            "loaded {n} records; expected between {least} and {most}"
        );
        // The truth's records are stamped "t"; the store stamps its own.
        let mut expected = self.replay(n);
        expected.log_started.clone_from(&state.log_started);
        assert_eq!(state, &expected, "a wrong state was loaded");
        if n > self.events.len() {
            self.events.extend(self.maybe.take());
        }
        self.events.truncate(n);
        self.maybe = None;
        self.durable = self.durable.min(n);
    }
}

fn open(dir: &Path, disk: &SimDisk, salvage: bool) -> Result<Store, StoreError> {
    Store::open(dir, Box::new(disk.clone()), OpenOptions { salvage })
}

/// After a crash: opens the store (salvaging if refused), checks what it
/// loaded, and that the log and checkpoint it leaves are whole.
fn reopen(dir: &Path, disk: &SimDisk, truth: &mut Truth, least: usize) -> (Store, bool) {
    let mut salvage = false;
    let store = loop {
        match open(dir, disk, salvage) {
            Ok(store) => break store,
            Err(StoreError::Corrupt { .. }) if !salvage => salvage = true,
            // A failure armed before the crash hits the opening: that run
            // exits 4 too, and the next one opens on a healthy disk.
            Err(StoreError::Io { source, .. })
                if matches!(source.raw_os_error(), Some(libc::ENOSPC | libc::EIO)) =>
            {
                disk.disarm();
            }
            Err(other) => panic!("opening after a crash failed: {other}"),
        }
    };
    let refused = salvage;
    truth.accept(store.state(), least);
    let paths = store.paths().clone();
    let log = disk.contents(&paths.history()).unwrap_or_default();
    let (found, bad) = log::scan(&log);
    assert!(bad.is_none(), "a bad line is left in the log: {bad:?}");
    assert_eq!(found.len() as u64, store.state().last_seq);
    let saved = disk
        .contents(&paths.state())
        .expect("state.json is written");
    let (checkpoint, _) = checkpoint::decode(&saved).expect("a valid state.json");
    assert_eq!(
        &checkpoint,
        store.state(),
        "state.json is current after opening"
    );
    (store, refused)
}

fn run(ops: Vec<Op>) {
    let dir = tempfile::tempdir().unwrap();
    let disk = SimDisk::new();
    let mut truth = Truth::default();
    let mut store = Some(open(dir.path(), &disk, false).unwrap());
    for op in ops {
        let Some(live) = store.as_mut() else {
            unreachable!("a store is open between operations")
        };
        let result = match op {
            Op::Append { sync, event } => {
                let durability = if sync {
                    Durability::Sync
                } else {
                    Durability::Lazy
                };
                match live.append((*event).clone(), durability) {
                    Ok(_) => {
                        truth.events.push(*event);
                        if sync {
                            truth.durable = truth.events.len();
                        }
                        Ok(())
                    }
                    Err(e) => {
                        truth.maybe = Some(*event);
                        Err(e)
                    }
                }
            }
            Op::Checkpoint => live.checkpoint(),
            Op::Close => live.close().map(|()| truth.durable = truth.events.len()),
            Op::Restart => {
                drop(store.take());
                let least = truth.events.len();
                let (reopened, refused) = reopen(dir.path(), &disk, &mut truth, least);
                assert!(!refused, "a kill loses nothing and damages nothing");
                store = Some(reopened);
                Ok(())
            }
            Op::PowerCut { seed } => {
                drop(store.take());
                disk.power_cut(seed);
                let least = truth.durable;
                store = Some(reopen(dir.path(), &disk, &mut truth, least).0);
                Ok(())
            }
            Op::Fail { n, errno } => {
                disk.fail_in(n, errno);
                Ok(())
            }
        };
        if let Err(error) = result {
            let StoreError::Io { source, .. } = &error else {
                panic!("a disk error must end as StoreError::Io, got {error}");
            };
            assert!(matches!(
                source.raw_os_error(),
                Some(libc::ENOSPC | libc::EIO)
            ));
            let live = store.as_mut().unwrap();
            // Never retried: the store does nothing more.
            let ops = disk.ops();
            assert!(matches!(live.checkpoint(), Err(StoreError::Halted)));
            assert!(matches!(
                live.append(
                    Event::Noted {
                        call: 0,
                        text: "x".into()
                    },
                    Durability::Sync
                ),
                Err(StoreError::Halted)
            ));
            assert!(matches!(live.close(), Err(StoreError::Halted)));
            assert_eq!(disk.ops(), ops, "a halted store touched the disk");
            // Nothing torn: every line of the log is a whole record.
            let log = disk.contents(&live.paths().history()).unwrap_or_default();
            assert!(log::scan(&log).1.is_none(), "a torn record after {error}");
            // The runner exits 4; the user frees space and resumes.
            drop(store.take());
            disk.disarm();
            let least = truth.events.len();
            store = Some(reopen(dir.path(), &disk, &mut truth, least).0);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn a_power_cut_never_loads_a_wrong_state(ops in proptest::collection::vec(op(), 1..60)) {
        run(ops);
    }
}

#[test]
fn an_enospc_on_append_halts_the_store_and_leaves_no_torn_record() {
    let dir = tempfile::tempdir().unwrap();
    let disk = SimDisk::new();
    let mut store = open(dir.path(), &disk, false).unwrap();
    let noted = |text: &str| Event::Noted {
        call: 0,
        text: text.into(),
    };
    store.append(noted("one"), Durability::Sync).unwrap();
    disk.fail_in(1, libc::ENOSPC);
    let error = store.append(noted("two"), Durability::Sync).unwrap_err();
    assert!(
        error.to_string().contains("No space left on device"),
        "{error}"
    );
    assert!(error.to_string().contains("runner resume"), "{error}");
    let log = disk.contents(&store.paths().history()).unwrap();
    assert_eq!(log::scan(&log).0.len(), 1);
    assert!(log::scan(&log).1.is_none(), "the short write was cut back");
    drop(store);
    let store = open(dir.path(), &disk, false).unwrap();
    assert_eq!(store.state().last_seq, 1);
}

#[test]
fn an_eio_on_fsync_is_never_retried() {
    let dir = tempfile::tempdir().unwrap();
    let disk = SimDisk::new();
    let mut store = open(dir.path(), &disk, false).unwrap();
    disk.fail_in(2, libc::EIO); // the append, then its sync
    let error = store
        .append(
            Event::Noted {
                call: 0,
                text: "one".into(),
            },
            Durability::Sync,
        )
        .unwrap_err();
    assert!(
        matches!(&error, StoreError::Io { source, .. } if source.raw_os_error() == Some(libc::EIO)),
        "{error}"
    );
    let ops = disk.ops();
    assert!(matches!(store.close(), Err(StoreError::Halted)));
    assert_eq!(disk.ops(), ops, "no second fsync");
}

#[test]
fn a_new_log_is_durable_with_its_folder_entry() {
    let dir = tempfile::tempdir().unwrap();
    let disk = SimDisk::new();
    let mut store = open(dir.path(), &disk, false).unwrap();
    store
        .append(
            Event::RunEnded {
                outcome: Outcome::Stopped,
                reason: "r".into(),
            },
            Durability::Sync,
        )
        .unwrap();
    drop(store);
    disk.lose_unsynced();
    let store = open(dir.path(), &disk, false).unwrap();
    assert_eq!(
        store.state().last_seq,
        1,
        "a synced record survives with the file that holds it"
    );
}
