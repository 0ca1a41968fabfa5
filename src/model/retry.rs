//! Retries with exponential backoff and jitter, for transient failures only.

use std::future::Future;
use std::time::Duration;

use super::{Failure, ModelError};

#[derive(Debug, Clone, PartialEq)]
pub struct RetryPolicy {
    /// Retries after the first attempt.
    pub retries: u32,
    /// The first pause; each next one doubles (1 s, 2 s, 4 s by default).
    pub base: Duration,
}

impl Default for RetryPolicy {
    fn default() -> Self {
        RetryPolicy {
            retries: 3,
            base: Duration::from_secs(1),
        }
    }
}

impl RetryPolicy {
    /// The pause before retry `n` (0-based): base·2ⁿ, ±20% jitter so that
    /// clients that failed together do not retry together.
    pub fn delay(&self, n: u32) -> Duration {
        let nominal = self.base.saturating_mul(1 << n.min(16));
        nominal.mul_f64(0.8 + 0.4 * fastrand::f64())
    }

    /// Runs `attempt` until it succeeds, fails for good, or the retries are
    /// spent. Returns the value and the retries it took.
    pub async fn run<T, F, Fut>(&self, mut attempt: F) -> Result<(T, u32), Failure>
    where
        F: FnMut() -> Fut,
        Fut: Future<Output = Result<T, ModelError>>,
    {
        let mut retries = 0;
        loop {
            match attempt().await {
                Ok(value) => return Ok((value, retries)),
                Err(error) if error.is_transient() && retries < self.retries => {
                    let pause = self.delay(retries);
                    tracing::warn!(%error, retry = retries + 1, ?pause, "model call failed; retrying");
                    tokio::time::sleep(pause).await;
                    retries += 1;
                }
                Err(error) => return Err(Failure { error, retries }),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::cell::Cell;

    fn server_error(transient: bool) -> ModelError {
        ModelError::Server {
            status: Some(500),
            message: "boom".into(),
            transient,
        }
    }

    #[test]
    fn delays_double_within_their_jitter() {
        let policy = RetryPolicy::default();
        for (n, secs) in [(0, 1.0), (1, 2.0), (2, 4.0)] {
            let d = policy.delay(n).as_secs_f64();
            assert!(d >= secs * 0.8 && d <= secs * 1.2, "retry {n}: {d}");
        }
    }

    #[tokio::test]
    async fn transient_failures_are_retried_until_success() {
        let policy = RetryPolicy {
            retries: 3,
            base: Duration::from_millis(1),
        };
        let calls = Cell::new(0);
        let result = policy
            .run(|| {
                calls.set(calls.get() + 1);
                let n = calls.get();
                async move {
                    if n < 3 {
                        Err(server_error(true))
                    } else {
                        Ok(n)
                    }
                }
            })
            .await;
        assert_eq!(result, Ok((3, 2)));
    }

    #[tokio::test]
    async fn permanent_failures_and_spent_retries_end_the_call() {
        let policy = RetryPolicy {
            retries: 2,
            base: Duration::from_millis(1),
        };
        let permanent = policy
            .run(|| async { Err::<(), _>(server_error(false)) })
            .await;
        assert_eq!(permanent.unwrap_err().retries, 0);
        let spent = policy
            .run(|| async { Err::<(), _>(server_error(true)) })
            .await;
        assert_eq!(spent.unwrap_err().retries, 2);
    }
}
