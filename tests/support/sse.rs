//! A Server-Sent Events reader for the stream tests: one request on its own connection,
//! the body read as it arrives and cut into events as the HTML standard's parser does
//! (`event`, `data`, `id` and `retry` fields; comments skipped).

use http_body_util::{BodyExt, Full};
use hyper::body::{Bytes, Incoming};
use serde_json::Value;
use std::net::SocketAddr;
use std::time::Duration;

/// One event of a stream: the fields of one block. A block with only `retry` is kept too, as
/// an event named `""`, so that tests can see the hint a stream ends with.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SseEvent {
    /// `event:`; `""` when the block had none.
    pub event: String,
    /// The `data:` lines, joined by newlines.
    pub data: String,
    /// `id:`, if the block had one.
    pub id: Option<String>,
    /// `retry:` in milliseconds, if the block had one.
    pub retry: Option<u64>,
}

impl SseEvent {
    /// The data as JSON (panics if it is not: a test failure).
    pub fn json(&self) -> Value {
        serde_json::from_str(&self.data)
            .unwrap_or_else(|error| panic!("event {:?} is not JSON: {error}", self.event))
    }
}

/// An open stream, or the refusal that came instead.
pub enum Opened {
    /// 200 and `text/event-stream`.
    Stream(EventStream),
    /// Any other answer: status and body.
    Refused(u16, Value),
}

impl Opened {
    /// The stream (panics on a refusal: a test failure).
    pub fn stream(self) -> EventStream {
        match self {
            Opened::Stream(stream) => stream,
            Opened::Refused(status, body) => panic!("the stream was refused: {status} {body}"),
        }
    }

    /// The refusal (panics on a stream).
    pub fn refused(self) -> (u16, Value) {
        match self {
            Opened::Stream(_) => panic!("a stream was opened where a refusal was expected"),
            Opened::Refused(status, body) => (status, body),
        }
    }
}

/// A stream being read.
pub struct EventStream {
    body: Incoming,
    buffer: String,
    ended: bool,
}

/// The longest a test waits for the next event of a stream that should send one: generous,
/// so that a busy machine only makes a test slower (issue 38).
pub const PATIENCE: Duration = Duration::from_secs(60);

impl EventStream {
    /// Opens `path` with `headers` on a new connection.
    pub async fn open(addr: SocketAddr, path: &str, headers: &[(&str, &str)]) -> Opened {
        let mut sender = crate::connect(addr)
            .await
            .unwrap_or_else(|error| panic!("{error}"));
        let mut builder = hyper::Request::builder()
            .method("GET")
            .uri(path)
            .header("host", addr.to_string())
            .header("accept", "text/event-stream");
        for (name, value) in headers {
            builder = builder.header(*name, *value);
        }
        let response = sender
            .send_request(builder.body(Full::new(Bytes::new())).unwrap())
            .await
            .unwrap_or_else(|error| panic!("GET {path}: {error}"));
        let status = response.status().as_u16();
        let content_type = response
            .headers()
            .get("content-type")
            .and_then(|value| value.to_str().ok())
            .unwrap_or("")
            .to_string();
        if status != 200 {
            let body = response.into_body().collect().await.unwrap().to_bytes();
            assert!(
                content_type.starts_with("application/problem+json"),
                "a refused stream answers a problem, not {content_type}"
            );
            return Opened::Refused(status, serde_json::from_slice(&body).unwrap());
        }
        assert!(
            content_type.starts_with("text/event-stream"),
            "GET {path}: 200 with content-type {content_type}"
        );
        Opened::Stream(EventStream {
            body: response.into_body(),
            buffer: String::new(),
            ended: false,
        })
    }

    /// The next event, or `None` once the stream has ended. Panics if nothing comes within
    /// [`PATIENCE`].
    pub async fn next(&mut self) -> Option<SseEvent> {
        tokio::time::timeout(PATIENCE, self.next_event())
            .await
            .unwrap_or_else(|_| panic!("no event within {PATIENCE:?}"))
    }

    /// The next event named `name` (others skipped), or `None` once the stream has ended.
    pub async fn next_named(&mut self, name: &str) -> Option<SseEvent> {
        while let Some(event) = self.next().await {
            if event.event == name {
                return Some(event);
            }
        }
        None
    }

    async fn next_event(&mut self) -> Option<SseEvent> {
        loop {
            if let Some(event) = self.take_block() {
                return Some(event);
            }
            if self.ended {
                return None;
            }
            match self.body.frame().await {
                Some(Ok(frame)) => {
                    if let Ok(data) = frame.into_data() {
                        self.buffer
                            .push_str(std::str::from_utf8(&data).expect("UTF-8 events"));
                    }
                }
                Some(Err(_)) | None => self.ended = true,
            }
        }
    }

    /// The first complete block of the buffer that holds a field, if there is one.
    fn take_block(&mut self) -> Option<SseEvent> {
        while let Some(end) = self.buffer.find("\n\n") {
            let block: String = self.buffer.drain(..end + 2).collect();
            let mut event = SseEvent::default();
            let mut data = Vec::new();
            let mut fields = 0;
            for line in block.lines() {
                if line.is_empty() || line.starts_with(':') {
                    continue;
                }
                let (name, value) = line.split_once(':').unwrap_or((line, ""));
                let value = value.strip_prefix(' ').unwrap_or(value);
                fields += 1;
                match name {
                    "event" => event.event = value.to_string(),
                    "data" => data.push(value.to_string()),
                    "id" => event.id = Some(value.to_string()),
                    "retry" => event.retry = value.parse().ok(),
                    other => panic!("an unknown field {other:?} in {block:?}"),
                }
            }
            if fields > 0 {
                event.data = data.join("\n");
                return Some(event);
            }
        }
        None
    }
}
