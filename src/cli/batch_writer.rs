//! `batch`'s writer thread: a block's rows are written while the next block is read and
//! answered, so the cores do not wait for the output file.
//!
//! Before, each block was answered on every core and then written on one, the others idle
//! (the last profile of the fast path put the serial read and write of each block between it
//! and the next 2x, BENCHMARKS.md "Batch fast path"). Now [`pipelined`] runs the command's
//! loop on the calling thread and hands each block's rows, in order, to a thread that only
//! writes; a bounded queue ([`QUEUED_BLOCKS`]) keeps memory flat when the output is slower
//! than the answers. Order is the queue's: rows leave in the order they were queued.

use std::io::{self, Write};
use std::sync::mpsc::{sync_channel, SyncSender};

use super::Failure;

/// Blocks of rows queued for the writer at most: one being written, one waiting, while the
/// loop answers the next.
pub const QUEUED_BLOCKS: usize = 2;

/// The queue to the writer thread, handed to the loop of [`pipelined`].
pub struct Rows {
    queue: SyncSender<Vec<Vec<u8>>>,
}

impl Rows {
    /// Queues `pieces` (rows, already encoded) to be written after everything queued before.
    ///
    /// # Errors
    /// When the writer has stopped (a write failed): the loop should stop; [`pipelined`]
    /// reports the writer's own error.
    pub fn send(&self, pieces: Vec<Vec<u8>>) -> io::Result<()> {
        if pieces.iter().all(Vec::is_empty) {
            return Ok(());
        }
        self.queue
            .send(pieces)
            .map_err(|_| io::Error::other("the writer thread stopped"))
    }
}

/// Runs `work` on this thread with a [`Rows`] queue whose rows a second thread writes to
/// `out`, in order; returns when both are done. A write error ends the writer, and is the
/// error returned (whatever `work` returned after its next `send` failed); else `work`'s
/// result.
///
/// # Errors
/// The writer's error, else `work`'s.
pub fn pipelined<R>(
    out: &mut (dyn Write + Send),
    work: impl FnOnce(&Rows) -> Result<R, Failure>,
) -> Result<R, Failure> {
    std::thread::scope(|scope| {
        let (queue, queued) = sync_channel::<Vec<Vec<u8>>>(QUEUED_BLOCKS - 1);
        let writer = scope.spawn(move || -> io::Result<()> {
            for pieces in queued {
                for piece in pieces {
                    out.write_all(&piece)?;
                }
            }
            Ok(())
        });
        let rows = Rows { queue };
        let result = work(&rows);
        // Closing the queue lets the writer finish what was queued and return.
        drop(rows);
        let written = writer
            .join()
            .unwrap_or_else(|panic| std::panic::resume_unwind(panic));
        match written {
            Err(error) => Err(Failure::from(error)),
            Ok(()) => result,
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A writer that takes `room` bytes, then fails every write.
    struct Full {
        written: Vec<u8>,
        room: usize,
    }

    impl Write for Full {
        fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
            if self.written.len() + buf.len() > self.room {
                return Err(io::Error::new(io::ErrorKind::StorageFull, "disk full"));
            }
            self.written.extend_from_slice(buf);
            Ok(buf.len())
        }

        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn rows_are_written_in_the_order_they_were_queued() {
        let mut out = Vec::new();
        let sent = pipelined(&mut out, |rows| {
            for block in 0..100u32 {
                let pieces = (0..7u32)
                    .map(|piece| format!("{block}.{piece}\n").into_bytes())
                    .collect();
                rows.send(pieces)?;
            }
            Ok(700)
        });
        assert_eq!(sent.ok(), Some(700));
        let expected: String = (0..100)
            .flat_map(|block| (0..7).map(move |piece| format!("{block}.{piece}\n")))
            .collect();
        assert_eq!(String::from_utf8(out).unwrap(), expected);
    }

    #[test]
    fn a_failed_write_stops_the_loop_and_is_the_error_reported() {
        let mut out = Full {
            written: Vec::new(),
            room: 10,
        };
        let mut sends = 0;
        let result = pipelined(&mut out, |rows| {
            for _ in 0..1000 {
                sends += 1;
                rows.send(vec![b"0123456789\n".to_vec()])?;
            }
            Ok(())
        });
        let failure = result.expect_err("the disk filled up");
        assert!(
            failure
                .message
                .as_deref()
                .unwrap_or("")
                .contains("disk full"),
            "{:?}",
            failure.message
        );
        assert!(sends < 1000, "the loop went on after the writer stopped");
        assert!(out.written.is_empty(), "no partial row");
    }
}
