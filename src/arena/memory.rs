//! How much memory a bot process used: its peak resident set (max RSS), as the kernel reports
//! it when the process is reaped. Botzone judges a bot by the same figure (256 MB), and only the
//! kernel's high-water mark is exact: sampling `/proc` would miss a peak that comes just before
//! the process exits, which is when a full-history bot ends anyway.

use std::process::{Child, ExitStatus};
use std::sync::atomic::{AtomicU64, Ordering};

/// The largest peak resident set among the processes reported to it, in kilobytes, and how
/// many there were. A player shares one with every process it starts (full-history Botzone
/// starts one a turn), so it holds the worst of them.
#[derive(Debug, Default)]
pub struct PeakMemory {
    kb: AtomicU64,
    processes: AtomicU64,
}

impl PeakMemory {
    pub fn record(&self, kb: u64) {
        self.kb.fetch_max(kb, Ordering::Relaxed);
        self.processes.fetch_add(1, Ordering::Relaxed);
    }

    /// The largest peak so far, in kilobytes (0 before any process has been reaped).
    pub fn kb(&self) -> u64 {
        self.kb.load(Ordering::Relaxed)
    }

    /// Processes reaped so far.
    pub fn processes(&self) -> u64 {
        self.processes.load(Ordering::Relaxed)
    }
}

/// A reaped child: how it ended, and its peak resident set in kilobytes where the system says.
#[derive(Clone, Copy, Debug)]
pub struct Reaped {
    pub status: ExitStatus,
    pub peak_kb: Option<u64>,
}

/// Reaps `child` if it has ended (or, with `block`, once it ends); `None` while it runs.
/// `wait4` is used instead of `Child::try_wait` because it alone returns the child's resource
/// use. The caller must then never signal the pid again: std does not know the child is gone,
/// and the number may already belong to another process.
#[cfg(unix)]
pub fn reap(child: &mut Child, block: bool) -> Option<Reaped> {
    use std::os::unix::process::ExitStatusExt;
    let pid = child.id() as libc::pid_t;
    let flags = if block { 0 } else { libc::WNOHANG };
    let mut status: libc::c_int = 0;
    // SAFETY: rusage is plain old data, for which all zeroes is a valid value.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    loop {
        // SAFETY: wait4(2) on our own child, writing into the two locals above.
        let r = unsafe { libc::wait4(pid, &mut status, flags, &mut usage) };
        if r == pid {
            return Some(Reaped {
                status: ExitStatus::from_raw(status),
                peak_kb: Some(max_rss_kb(usage.ru_maxrss)),
            });
        }
        let interrupted =
            r == -1 && std::io::Error::last_os_error().kind() == std::io::ErrorKind::Interrupted;
        if !interrupted {
            // 0: still running (WNOHANG). -1: no such child, which cannot happen to a child we
            // have not reaped; it is treated as still there rather than invent a status.
            return None;
        }
    }
}

#[cfg(not(unix))]
pub fn reap(child: &mut Child, block: bool) -> Option<Reaped> {
    let status = if block {
        child.wait().ok()
    } else {
        child.try_wait().ok().flatten()
    };
    status.map(|status| Reaped {
        status,
        peak_kb: None,
    })
}

/// `ru_maxrss` is in kilobytes on Linux and the BSDs, in bytes on macOS.
#[cfg(unix)]
fn max_rss_kb(raw: libc::c_long) -> u64 {
    let raw = u64::try_from(raw).unwrap_or(0);
    if cfg!(target_os = "macos") {
        raw / 1024
    } else {
        raw
    }
}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    use super::*;
    use std::process::Command;

    #[test]
    fn a_reaped_child_reports_its_peak() {
        // A shell that holds about 40 MB: the peak must show it, well above the shell's own.
        let mut child = Command::new("sh")
            .arg("-c")
            .arg("x=$(head -c 40000000 /dev/zero | tr '\\0' a); exit 3")
            .spawn()
            .unwrap();
        let reaped = reap(&mut child, true).expect("a blocking reap returns");
        assert_eq!(reaped.status.code(), Some(3));
        let kb = reaped.peak_kb.unwrap();
        assert!(kb > 30_000, "peak {kb} kB");
        let sink = PeakMemory::default();
        sink.record(kb);
        sink.record(1);
        assert_eq!((sink.kb(), sink.processes()), (kb, 2));
    }
}
