//! Bots the arena started die with it. A keep-running bot spends the opponent's turns frozen
//! (SIGSTOP, as on Botzone); if the arena were killed then (`kill`, `pkill`, a scheduler's
//! SIGTERM), the frozen bot would stay stopped for ever, holding its memory, since a stopped
//! process acts on no signal but SIGKILL and SIGCONT. So every live bot's pid is kept here, and
//! SIGTERM, SIGINT and SIGHUP first SIGKILL them all, then end the arena as the signal would have
//! (a signal the arena was started ignoring, as under `nohup`, stays ignored). Each bot runs in
//! a process group of its own (`process.rs`), so a hang-up of the arena's group does not reach it.

#[cfg(unix)]
mod imp {
    use std::sync::atomic::{AtomicI32, Ordering};
    use std::sync::Once;

    /// More bots than any match or bracket runs at once; past it a bot goes unrecorded (and
    /// would only be left behind if the arena were killed).
    const SLOTS: usize = 256;

    /// Live bots' pids, 0 for a free slot. Atomics, because the signal handler reads them and may
    /// take nothing else (no lock, no allocation).
    static PIDS: [AtomicI32; SLOTS] = [const { AtomicI32::new(0) }; SLOTS];
    static INSTALL: Once = Once::new();

    /// Records a bot just started; installs the handler the first time.
    pub fn started(pid: u32) {
        INSTALL.call_once(install);
        swap_slot(0, pid as i32);
    }

    /// Forgets a bot that has been reaped: its pid may now be given to another process.
    pub fn reaped(pid: u32) {
        swap_slot(pid as i32, 0);
    }

    /// Puts `new` in the first slot holding `old` (nothing if none does).
    fn swap_slot(old: i32, new: i32) {
        for slot in &PIDS {
            if slot
                .compare_exchange(old, new, Ordering::SeqCst, Ordering::SeqCst)
                .is_ok()
            {
                return;
            }
        }
    }

    fn install() {
        for sig in [libc::SIGTERM, libc::SIGINT, libc::SIGHUP] {
            // SAFETY: sigaction(2) reading the current action, then setting a handler that
            // calls only async-signal-safe functions (kill, signal, raise) and reads atomics.
            unsafe {
                let mut current: libc::sigaction = std::mem::zeroed();
                libc::sigaction(sig, std::ptr::null(), &mut current);
                // A signal ignored from the start stays ignored: `nohup stonebrain arena` must
                // outlive its terminal, and a background job ignores Ctrl-C.
                if current.sa_sigaction == libc::SIG_IGN {
                    continue;
                }
                let mut action: libc::sigaction = std::mem::zeroed();
                action.sa_sigaction = on_signal as extern "C" fn(libc::c_int) as usize;
                libc::sigemptyset(&mut action.sa_mask);
                libc::sigaction(sig, &action, std::ptr::null_mut());
            }
        }
    }

    extern "C" fn on_signal(sig: libc::c_int) {
        for slot in &PIDS {
            let pid = slot.load(Ordering::SeqCst);
            if pid > 0 {
                // SAFETY: kill(2) is async-signal-safe; the pid is a child not yet reaped, so
                // still ours (a zombie at worst).
                unsafe {
                    libc::kill(pid, libc::SIGKILL);
                }
            }
        }
        // SAFETY: signal(2) and raise(3) are async-signal-safe: the default action now ends
        // the process with the signal's own status.
        unsafe {
            libc::signal(sig, libc::SIG_DFL);
            libc::raise(sig);
        }
    }
}

#[cfg(not(unix))]
mod imp {
    // No freezing there (bots stay awake between turns), so nothing is left stopped.
    pub fn started(_pid: u32) {}
    pub fn reaped(_pid: u32) {}
}

pub use imp::{reaped, started};
