//! A stop request (Ctrl-C, SIGTERM) that the loop and the tools can wait on
//! and check at their safe points.

use tokio::sync::watch;

/// The sending side, held by the signal handler.
#[derive(Debug)]
pub struct StopSender(watch::Sender<bool>);

/// The receiving side: cheap to clone.
#[derive(Debug, Clone)]
pub struct Stop(watch::Receiver<bool>);

pub fn channel() -> (StopSender, Stop) {
    let (tx, rx) = watch::channel(false);
    (StopSender(tx), Stop(rx))
}

impl StopSender {
    pub fn request(&self) {
        let _ = self.0.send(true);
    }
}

impl Stop {
    /// A stop that never comes (tests, read-only commands).
    pub fn never() -> Stop {
        // The sender is dropped at once, so `requested` waits forever.
        let (_, rx) = watch::channel(false);
        Stop(rx)
    }

    pub fn is_requested(&self) -> bool {
        *self.0.borrow()
    }

    /// Resolves once a stop is requested.
    pub async fn requested(&self) {
        let mut rx = self.0.clone();
        // An error means the sender is gone: no stop can come any more.
        if rx.wait_for(|stop| *stop).await.is_err() {
            std::future::pending::<()>().await;
        }
    }
}
