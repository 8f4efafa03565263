//! A bounded load test of the playground over loopback (docs/benchmarks.md): starts
//! `epipen serve`'s server in this process on 127.0.0.1 (a free port, one solve per
//! core), then CLIENTS threads, each on one kept-alive connection, post Cheryl's Birthday
//! REQUESTS times in all to `/api/run` (the run, its trace and its worlds: what the page
//! asks after each edit), then to `/api/graph` (the model at `whispered`), and print
//! requests per second and latency percentiles. Every answer is checked.
//!
//! `cargo run --release --example serve_load -- [REQUESTS] [CLIENTS]` (default 2000, 4;
//! at most 100 000 and 64).

#[path = "../tests/cli/http.rs"]
mod http;

use std::time::{Duration, Instant};

use serde_json::json;

fn main() {
    let args: Vec<usize> = std::env::args()
        .skip(1)
        .map(|a| a.parse().expect("REQUESTS and CLIENTS are whole numbers"))
        .collect();
    let requests = args.first().copied().unwrap_or(2000).clamp(1, 100_000);
    let clients = args.get(1).copied().unwrap_or(4).clamp(1, 64);

    let config = epipen_cli::serve::Config {
        port: 0,
        ..epipen_cli::serve::Config::default()
    };
    let server = epipen_cli::serve::Server::bind(&config).expect("bind 127.0.0.1");
    let addr = server.addr();
    assert!(addr.ip().is_loopback());
    std::thread::spawn(move || server.run());

    let source = include_str!("../../../stories/cheryl.story");
    println!(
        "epipen serve on {addr}: {} solves at a time; {requests} requests from {clients} clients, Cheryl's Birthday",
        config.workers
    );
    let run = json!({"source": source, "name": "cheryl.story"});
    measure(
        &addr.to_string(),
        "/api/run",
        &run,
        requests,
        clients,
        |answer| answer["worlds"]["list"] == json!([{"month": 7, "day": 16}]),
    );
    let graph = json!({"source": source, "name": "cheryl.story", "at": "whispered"});
    measure(
        &addr.to_string(),
        "/api/graph",
        &graph,
        requests,
        clients,
        |answer| answer["edges"].as_array().map(Vec::len) == Some(12),
    );
}

/// Warms up, then times `requests` posts of `body` to `path` from `clients` threads.
fn measure(
    addr: &str,
    path: &str,
    body: &serde_json::Value,
    requests: usize,
    clients: usize,
    right: fn(&serde_json::Value) -> bool,
) {
    let post = |client: &mut http::Client| {
        let response = client.post_json(path, body);
        assert_eq!(response.status, 200, "{}", response.body);
        assert!(right(&response.json()), "{}", response.body);
    };
    let mut warm = http::Client::connect(addr).expect("connect");
    for _ in 0..20 {
        post(&mut warm);
    }
    let start = Instant::now();
    let mut latencies: Vec<Duration> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..clients)
            .map(|k| {
                let share = requests / clients + usize::from(k < requests % clients);
                scope.spawn(move || {
                    let mut client = http::Client::connect(addr).expect("connect");
                    (0..share)
                        .map(|_| {
                            let sent = Instant::now();
                            post(&mut client);
                            sent.elapsed()
                        })
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().expect("a client"))
            .collect()
    });
    let wall = start.elapsed();
    latencies.sort();
    let at = |q: f64| {
        let i = ((latencies.len() as f64 * q).ceil() as usize).clamp(1, latencies.len()) - 1;
        latencies[i].as_secs_f64() * 1000.0
    };
    println!(
        "{path:<10}  {:>7.0} requests/s  latency ms: median {:.2}, p90 {:.2}, p99 {:.2}, max {:.2}",
        latencies.len() as f64 / wall.as_secs_f64(),
        at(0.5),
        at(0.9),
        at(0.99),
        at(1.0)
    );
}
