//! `epipen serve`: the web playground. One page (`assets/`, compiled in: no network at
//! run time) to edit a story, run it, and explore its trace and epistemic model, served
//! by axum on tokio; the JSON API it calls is in `api.rs`.
//!
//! Each solve runs on a blocking thread (the engine is not `Send`: it is built there),
//! after taking one of [`Config::workers`] permits (one per core by default: a solve is
//! one thread's work and its memory), within [`Config::timeout`]. A solve still running
//! [`GRACE`] after its limit is answered as a timeout while its thread finishes in the
//! background, keeping its permit; a panic ends that one request with an error. Bodies
//! over [`MAX_BODY`] bytes are refused. Requests wait for a permit in a bounded queue:
//! at most [`MAX_WAITING`] of them, each at most [`QUEUE_WAIT`]; beyond that the answer
//! is 503 "busy".

mod api;

use std::net::{IpAddr, Ipv4Addr, SocketAddr, TcpListener};
use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use axum::Router;
use axum::extract::{DefaultBodyLimit, Request, State as Extract};
use axum::http::{HeaderValue, StatusCode, header};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use serde_json::{Value, json};
use tokio::sync::Semaphore;

use crate::output::{errln, outln};

/// The port `epipen serve` listens on unless `--port` says otherwise.
pub const DEFAULT_PORT: u16 = 8765;
/// The time limit of one solve unless `--timeout` says otherwise.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(10);
/// The largest request body accepted (a story and its settings).
pub const MAX_BODY: usize = 1 << 20;
/// How long a request waits for a free worker before it is refused as busy.
pub const QUEUE_WAIT: Duration = Duration::from_secs(60);
/// How many requests may wait for a worker at once; more are refused as busy at once.
pub const MAX_WAITING: usize = 64;
/// How long after its time limit a solve that has not returned is answered as a timeout.
pub const GRACE: Duration = Duration::from_secs(2);

/// How `epipen serve` serves.
#[derive(Debug, Clone)]
pub struct Config {
    pub host: IpAddr,
    /// 0 picks a free port.
    pub port: u16,
    /// The time limit of one solve (compiling included).
    pub timeout: Duration,
    /// How many solves run at once; more wait for one to finish.
    pub workers: usize,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            host: IpAddr::V4(Ipv4Addr::LOCALHOST),
            port: DEFAULT_PORT,
            timeout: DEFAULT_TIMEOUT,
            workers: std::thread::available_parallelism().map_or(1, |n| n.get()),
        }
    }
}

/// What every request shares.
struct State {
    permits: Arc<Semaphore>,
    /// Requests waiting for a permit now.
    waiting: AtomicUsize,
    /// [`QUEUE_WAIT`] (shorter in tests).
    queue_wait: Duration,
    timeout: Duration,
    /// [`GRACE`] (shorter in tests).
    grace: Duration,
    /// The `Host` headers accepted when bound to a loopback address (a page elsewhere
    /// cannot reach the playground through a name it points at 127.0.0.1).
    hosts: Option<Vec<String>>,
}

/// A playground bound to its address, not serving yet.
pub struct Server {
    listener: TcpListener,
    addr: SocketAddr,
    state: Arc<State>,
}

impl Server {
    /// Binds the address `config` names.
    pub fn bind(config: &Config) -> std::io::Result<Server> {
        let listener = TcpListener::bind((config.host, config.port))?;
        listener.set_nonblocking(true)?;
        let addr = listener.local_addr()?;
        let hosts = addr.ip().is_loopback().then(|| {
            let port = addr.port();
            vec![
                format!("127.0.0.1:{port}"),
                format!("localhost:{port}"),
                format!("[::1]:{port}"),
            ]
        });
        Ok(Server {
            listener,
            addr,
            state: Arc::new(State {
                permits: Arc::new(Semaphore::new(config.workers.max(1))),
                waiting: AtomicUsize::new(0),
                queue_wait: QUEUE_WAIT,
                timeout: config.timeout,
                grace: GRACE,
                hosts,
            }),
        })
    }

    /// The address it listens on (the port chosen when 0 was asked for).
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// `http://127.0.0.1:8765/`
    pub fn url(&self) -> String {
        format!("http://{}/", self.addr)
    }

    /// Serves until the process ends.
    pub fn run(self) -> std::io::Result<()> {
        // Ctrl-C ends the server like any command, also inside a solver call.
        epipen::engine::leave_ctrl_c_to_the_process();
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()?;
        runtime.block_on(async move {
            let listener = tokio::net::TcpListener::from_std(self.listener)?;
            axum::serve(listener, router(self.state)).await
        })
    }
}

/// `epipen serve`: binds, prints the URL (and opens it with `open`), serves.
pub fn main(config: &Config, open: bool) -> ExitCode {
    let server = match Server::bind(config) {
        Ok(server) => server,
        Err(e) => {
            errln!(
                "error: cannot listen on {}: {e}",
                SocketAddr::new(config.host, config.port)
            );
            if e.kind() == std::io::ErrorKind::AddrInUse {
                errln!("  = hint: --port 0 picks a free port");
            }
            return ExitCode::from(2);
        }
    };
    let url = server.url();
    outln!("epipen playground: {url}");
    if server.addr.ip().is_loopback() {
        outln!(
            "(listening on {} only: other machines cannot reach it; --host 0.0.0.0 serves them)",
            server.addr.ip()
        );
    } else {
        outln!(
            "(listening on {}: anyone who can reach this machine can run stories on it)",
            server.addr.ip()
        );
    }
    outln!(
        "each run: at most {:.0} s (--timeout), {} at a time; Ctrl-C stops the server",
        config.timeout.as_secs_f64(),
        config.workers
    );
    crate::output::flush_stdout();
    if open {
        open_browser(&url);
    }
    match server.run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            errln!("error: the server stopped: {e}");
            ExitCode::from(1)
        }
    }
}

/// `--open`: asks `xdg-open` to show `url`, and says so when it cannot.
fn open_browser(url: &str) {
    let could_not = |why: String| {
        errln!("note: could not open a browser ({why}); open {url} yourself");
    };
    match std::process::Command::new("xdg-open")
        .arg(url)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .status()
    {
        Ok(status) if status.success() => outln!("opened {url} in the browser"),
        Ok(status) => could_not(format!("xdg-open failed: {status}")),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            could_not("xdg-open is not installed".to_string())
        }
        Err(e) => could_not(format!("cannot run xdg-open: {e}")),
    }
}

fn router(state: Arc<State>) -> Router {
    Router::new()
        .route(
            "/",
            get(|| asset("text/html", include_str!("assets/index.html"))),
        )
        .route(
            "/app.js",
            get(|| asset("text/javascript", include_str!("assets/app.js"))),
        )
        .route(
            "/model.js",
            get(|| asset("text/javascript", include_str!("assets/model.js"))),
        )
        .route(
            "/style.css",
            get(|| asset("text/css", include_str!("assets/style.css"))),
        )
        .route(
            "/docs/language.md",
            get(|| asset("text/plain", include_str!("../../../../docs/language.md"))),
        )
        .route("/api/stories", get(api::stories))
        .route("/api/version", get(api::version))
        .route("/api/run", post(api::run))
        .route("/api/graph", post(api::graph))
        .route("/api/ask", post(api::ask))
        .route("/api/event", post(api::event))
        .fallback(|| async { error(StatusCode::NOT_FOUND, "no such page".into()) })
        .layer(DefaultBodyLimit::max(MAX_BODY))
        .layer(middleware::from_fn_with_state(state.clone(), check_host))
        .with_state(state)
}

/// A compiled-in file; the page may load nothing from elsewhere.
async fn asset(kind: &'static str, text: &'static str) -> Response {
    (
        [
            (header::CONTENT_TYPE, format!("{kind}; charset=utf-8")),
            (
                header::CONTENT_SECURITY_POLICY,
                "default-src 'self'; img-src 'self' data:".to_string(),
            ),
            (header::X_CONTENT_TYPE_OPTIONS, "nosniff".to_string()),
        ],
        text,
    )
        .into_response()
}

/// Refuses a request addressed to another name than the loopback one it was bound to.
async fn check_host(Extract(state): Extract<Arc<State>>, request: Request, next: Next) -> Response {
    if let Some(hosts) = &state.hosts {
        let host = request.headers().get(header::HOST).map(HeaderValue::to_str);
        if let Some(Ok(host)) = host
            && !hosts.iter().any(|h| h == host)
        {
            return error(
                StatusCode::FORBIDDEN,
                format!(
                    "the playground answers to {} only, not to `{host}`",
                    hosts[0]
                ),
            );
        }
    }
    next.run(request).await
}

/// A request the API refuses: `{"error": message}`.
fn error(status: StatusCode, message: String) -> Response {
    (status, axum::Json(json!({ "error": message }))).into_response()
}

/// Runs `job` on a blocking thread once a permit is free, within the time limit; a job
/// still running the grace ([`GRACE`]) after `limit` is answered by `timed_out`, and a job that
/// panics by an error (status 500), the server serving on.
async fn solve(
    state: &State,
    limit: Duration,
    job: impl FnOnce() -> Value + Send + 'static,
    timed_out: impl FnOnce() -> Value,
) -> Response {
    let busy = || {
        error(
            StatusCode::SERVICE_UNAVAILABLE,
            "the server is busy with other stories; try again".into(),
        )
    };
    let permit = match state.permits.clone().try_acquire_owned() {
        Ok(permit) => permit,
        Err(_) => {
            // Wait in the queue, if there is room in it.
            if state.waiting.fetch_add(1, Ordering::SeqCst) >= MAX_WAITING {
                state.waiting.fetch_sub(1, Ordering::SeqCst);
                return busy();
            }
            let permits = state.permits.clone().acquire_owned();
            let waited = tokio::time::timeout(state.queue_wait, permits).await;
            state.waiting.fetch_sub(1, Ordering::SeqCst);
            let Ok(Ok(permit)) = waited else {
                return busy();
            };
            permit
        }
    };
    let task = tokio::task::spawn_blocking(move || {
        let _permit = permit;
        job()
    });
    match tokio::time::timeout(limit + state.grace, task).await {
        Ok(Ok(value)) => axum::Json(value).into_response(),
        Ok(Err(e)) => {
            let why = match e.try_into_panic() {
                Ok(payload) => payload
                    .downcast_ref::<&str>()
                    .map(|s| s.to_string())
                    .or_else(|| payload.downcast_ref::<String>().cloned())
                    .unwrap_or_else(|| "a panic".into()),
                Err(e) => e.to_string(),
            };
            tracing::error!("a solve failed: {why}");
            error(
                StatusCode::INTERNAL_SERVER_ERROR,
                format!(
                    "internal error: the solver failed ({why}); please report it with the story"
                ),
            )
        }
        Err(_) => axum::Json(timed_out()).into_response(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn state(workers: usize) -> State {
        State {
            permits: Arc::new(Semaphore::new(workers)),
            waiting: AtomicUsize::new(0),
            queue_wait: Duration::from_millis(200),
            timeout: Duration::from_millis(100),
            grace: Duration::from_millis(100),
            hosts: None,
        }
    }

    async fn body(response: Response) -> (StatusCode, Value) {
        let status = response.status();
        let bytes = axum::body::to_bytes(response.into_body(), MAX_BODY)
            .await
            .expect("a body");
        (status, serde_json::from_slice(&bytes).expect("JSON"))
    }

    #[test]
    fn a_panicking_solve_is_an_error_and_the_next_one_runs() {
        let runtime = tokio::runtime::Runtime::new().unwrap();
        runtime.block_on(async {
            let state = state(1);
            let limit = Duration::from_secs(5);
            let panics = solve(&state, limit, || panic!("boom"), || json!("timeout")).await;
            let (status, value) = body(panics).await;
            assert_eq!(status, StatusCode::INTERNAL_SERVER_ERROR);
            assert_eq!(
                value["error"],
                "internal error: the solver failed (boom); please report it with the story"
            );
            // The permit came back: the one worker takes the next job.
            let fine = solve(&state, limit, || json!({"ok": 1}), || json!("timeout")).await;
            assert_eq!(body(fine).await, (StatusCode::OK, json!({"ok": 1})));
        });
    }

    #[test]
    fn a_solve_that_does_not_stop_is_answered_after_the_grace() {
        let runtime = tokio::runtime::Runtime::new().unwrap();
        runtime.block_on(async {
            let state = state(1);
            let (tx, rx) = std::sync::mpsc::channel::<()>();
            let stuck = move || {
                let _ = rx.recv();
                json!("finished")
            };
            let limit = Duration::from_millis(10);
            let answer = solve(&state, limit, stuck, || json!("timed out")).await;
            assert_eq!(body(answer).await, (StatusCode::OK, json!("timed out")));
            // Its thread still holds the only permit: the next request waits for it,
            // and is refused as busy when it does not come back in time.
            let busy = solve(&state, limit, || json!("ran"), || json!("timed out")).await;
            assert_eq!(busy.status(), StatusCode::SERVICE_UNAVAILABLE);
            tx.send(()).unwrap();
            let next = solve(&state, limit, || json!("ran"), || json!("timed out")).await;
            assert_eq!(body(next).await, (StatusCode::OK, json!("ran")));
        });
    }

    #[test]
    fn a_full_queue_refuses_at_once_and_a_waiting_request_gets_the_next_worker() {
        let runtime = tokio::runtime::Runtime::new().unwrap();
        runtime.block_on(async {
            let state = Arc::new(state(1));
            let held = state.permits.clone().try_acquire_owned().unwrap();
            state.waiting.store(MAX_WAITING, Ordering::SeqCst);
            let start = std::time::Instant::now();
            let refused = solve(
                &state,
                Duration::from_secs(1),
                || json!("ran"),
                || json!("-"),
            )
            .await;
            assert_eq!(refused.status(), StatusCode::SERVICE_UNAVAILABLE);
            assert!(
                start.elapsed() < state.queue_wait,
                "refused without waiting"
            );
            assert_eq!(state.waiting.load(Ordering::SeqCst), MAX_WAITING);
            state.waiting.store(0, Ordering::SeqCst);
            // Room in the queue: the request waits, and runs when the worker is free.
            let waiting = {
                let state = state.clone();
                tokio::spawn(async move {
                    solve(
                        &state,
                        Duration::from_secs(1),
                        || json!("ran"),
                        || json!("-"),
                    )
                    .await
                })
            };
            tokio::time::sleep(Duration::from_millis(50)).await;
            assert_eq!(state.waiting.load(Ordering::SeqCst), 1);
            drop(held);
            let answer = waiting.await.unwrap();
            assert_eq!(body(answer).await, (StatusCode::OK, json!("ran")));
            assert_eq!(state.waiting.load(Ordering::SeqCst), 0);
        });
    }
}
