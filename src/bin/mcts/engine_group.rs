//! `mcts match`'s engine processes, each in a process group of its own, ended as a group on
//! every way out: an engine started through a wrapper script (`sh -c 'mohex …; echo done'`, no
//! `exec`) or one that starts helpers (`yes info &`) leaves processes that killing the one
//! process the referee started does not end (they kept running after a timeout, and after the
//! referee aborted).
//!
//! - [`own_group`]: the engine is started as the leader of a new process group
//!   (`setpgid(0, 0)`, std's `CommandExt::process_group`), so its children are in it too (unless
//!   they leave it on purpose: `setsid`, a daemon).
//! - [`end_group`]: `SIGTERM` to the group, up to [`TERM_GRACE`] for its leader to exit, then
//!   `SIGKILL` to whatever is left of the group, and the leader reaped. The leader is reaped
//!   only after the `SIGKILL`, so the group's id cannot have been given to another process in
//!   between.
//! - [`catch_signals`]: in a group of its own an engine no longer gets the terminal's Ctrl-C
//!   (`SIGINT` goes to the foreground group, the referee's), so the referee catches `SIGINT`,
//!   `SIGTERM` and `SIGHUP`: the handler sends `SIGTERM` to the registered groups at once, and a
//!   thread woken by it waits up to [`TERM_GRACE`], sends `SIGKILL`, says so on standard error
//!   and exits with status 128 + the signal's number. On `SIGABRT` (a failed allocation, a
//!   panic while panicking) the handler sends `SIGKILL` to the groups before the process ends.
//!
//! The `unsafe` blocks here are the `libc` calls std does not offer (kill(2) of a group,
//! waitid(2) without reaping, sigaction(2), pipe(2), write(2)).

use std::process::{Child, Command};
use std::time::{Duration, Instant};

/// How long an engine's process group has to end after `SIGTERM` before it gets `SIGKILL`: 2 s,
/// the time an engine needs to flush a log and exit (ours exits at once; MoHex in well under a
/// second), short enough that the final results are not held up by an engine that ignores
/// `SIGTERM`.
pub const TERM_GRACE: Duration = Duration::from_secs(2);

/// How often a wait for an engine's exit looks again.
const POLL: Duration = Duration::from_millis(5);

#[cfg(unix)]
mod imp {
    use super::*;
    use std::os::unix::process::CommandExt;
    use std::sync::atomic::{AtomicBool, AtomicI32, Ordering};
    use std::sync::Once;

    /// The process groups to end on a signal (0: none), one per engine.
    static GROUPS: [AtomicI32; 2] = [AtomicI32::new(0), AtomicI32::new(0)];
    /// The write end of the pipe that wakes the signal thread (-1 before [`catch_signals`]).
    static WAKE: AtomicI32 = AtomicI32::new(-1);
    /// A signal was caught: the signal's thread is ending the process.
    static INTERRUPTED: AtomicBool = AtomicBool::new(false);

    pub fn interrupted() -> bool {
        INTERRUPTED.load(Ordering::SeqCst)
    }

    pub fn own_group(cmd: &mut Command) {
        cmd.process_group(0);
    }

    pub fn register(slot: usize, child: &Child) {
        if let Ok(pid) = i32::try_from(child.id()) {
            GROUPS[slot].store(pid, Ordering::SeqCst);
        }
    }

    pub fn unregister(slot: usize) {
        GROUPS[slot].store(0, Ordering::SeqCst);
    }

    /// `kill(-group, sig)`; errors (the group is gone) ignored.
    fn kill_group(group: i32, sig: libc::c_int) {
        if group > 0 {
            // SAFETY: kill(2) with a negative pid signals that process group; no memory is
            // involved. `group` is the id of a leader this process has not reaped, so it names
            // the engine's group and no other.
            unsafe {
                libc::kill(-group, sig);
            }
        }
    }

    /// Whether process `pid` (a child of this process) has exited, without reaping it; true
    /// if it is no longer a child (already reaped).
    fn exited(pid: i32) -> bool {
        // SAFETY: waitid(2) writes only into `info`, a zeroed siginfo_t owned here; WNOWAIT
        // leaves the child to be reaped by `Child::wait`.
        unsafe {
            let mut info: libc::siginfo_t = std::mem::zeroed();
            let r = libc::waitid(libc::P_PID, pid as libc::id_t, &mut info, libc::WEXITED | libc::WNOHANG | libc::WNOWAIT);
            r != 0 || info.si_pid() != 0
        }
    }

    pub fn wait_exit(pid: i32, limit: Duration) -> bool {
        let deadline = Instant::now() + limit;
        loop {
            if exited(pid) {
                return true;
            }
            if Instant::now() >= deadline {
                return false;
            }
            std::thread::sleep(POLL);
        }
    }

    pub fn child_exited(child: &Child, limit: Duration) -> bool {
        i32::try_from(child.id()).map_or(true, |pid| wait_exit(pid, limit))
    }

    pub fn end_group(child: &mut Child) {
        let Ok(group) = i32::try_from(child.id()) else {
            let _ = child.kill();
            let _ = child.wait();
            return;
        };
        if !exited(group) {
            kill_group(group, libc::SIGTERM);
            wait_exit(group, TERM_GRACE);
        }
        // What is left of the group (a wrapper's children, helpers started in the background).
        kill_group(group, libc::SIGKILL);
        let _ = child.wait();
    }

    extern "C" fn on_signal(sig: libc::c_int) {
        // Only async-signal-safe calls here: atomics, kill(2), write(2).
        INTERRUPTED.store(true, Ordering::SeqCst);
        for g in &GROUPS {
            kill_group(g.load(Ordering::SeqCst), libc::SIGTERM);
        }
        let fd = WAKE.load(Ordering::SeqCst);
        if fd >= 0 {
            let byte = sig as u8;
            // SAFETY: writes one byte from a local to the pipe's write end.
            unsafe {
                libc::write(fd, (&byte as *const u8).cast(), 1);
            }
        }
    }

    extern "C" fn on_abort(_sig: libc::c_int) {
        for g in &GROUPS {
            kill_group(g.load(Ordering::SeqCst), libc::SIGKILL);
        }
        // SA_RESETHAND restored the default action; SIGABRT raised again is held until this
        // handler returns, then ends the process as it would have (also for a SIGABRT sent by
        // kill(1), which abort(3) would not raise again).
        // SAFETY: raise(3) is async-signal-safe.
        unsafe {
            libc::raise(libc::SIGABRT);
        }
    }

    fn install(sig: libc::c_int, handler: extern "C" fn(libc::c_int), flags: libc::c_int) {
        // SAFETY: sigaction(2) with a zeroed, then filled, struct owned here; the handlers make
        // only async-signal-safe calls.
        unsafe {
            let mut action: libc::sigaction = std::mem::zeroed();
            action.sa_sigaction = handler as usize;
            action.sa_flags = flags;
            libc::sigemptyset(&mut action.sa_mask);
            libc::sigaction(sig, &action, std::ptr::null_mut());
        }
    }

    pub fn catch_signals(note: String) {
        static ONCE: Once = Once::new();
        ONCE.call_once(|| {
            let mut fds = [0 as libc::c_int; 2];
            // SAFETY: pipe(2) writes two descriptors into `fds`; fcntl(2) sets close-on-exec so
            // that the engines do not inherit them.
            let ok = unsafe {
                libc::pipe(fds.as_mut_ptr()) == 0
                    && libc::fcntl(fds[0], libc::F_SETFD, libc::FD_CLOEXEC) == 0
                    && libc::fcntl(fds[1], libc::F_SETFD, libc::FD_CLOEXEC) == 0
            };
            if !ok {
                return;
            }
            WAKE.store(fds[1], Ordering::SeqCst);
            let read_fd = fds[0];
            std::thread::spawn(move || {
                let mut byte = 0u8;
                loop {
                    // SAFETY: reads one byte into a local.
                    let n = unsafe { libc::read(read_fd, (&mut byte as *mut u8).cast(), 1) };
                    if n == 1 {
                        break;
                    }
                    if n == 0 || std::io::Error::last_os_error().kind() != std::io::ErrorKind::Interrupted {
                        return;
                    }
                }
                let groups: Vec<i32> = GROUPS.iter().map(|g| g.load(Ordering::SeqCst)).filter(|&g| g > 0).collect();
                let deadline = Instant::now() + TERM_GRACE;
                for &g in &groups {
                    wait_exit(g, deadline.saturating_duration_since(Instant::now()));
                }
                for &g in &groups {
                    kill_group(g, libc::SIGKILL);
                }
                let name = match i32::from(byte) {
                    libc::SIGINT => "SIGINT (Ctrl-C)",
                    libc::SIGTERM => "SIGTERM",
                    libc::SIGHUP => "SIGHUP",
                    _ => "a signal",
                };
                crate::out::errln(&format!("mcts: interrupted by {name}: both engines ended{note}"));
                std::process::exit(128 + i32::from(byte));
            });
            for sig in [libc::SIGINT, libc::SIGTERM, libc::SIGHUP] {
                install(sig, on_signal, libc::SA_RESTART);
            }
            install(libc::SIGABRT, on_abort, libc::SA_RESETHAND);
        });
    }
}

#[cfg(not(unix))]
mod imp {
    use super::*;

    pub fn own_group(_cmd: &mut Command) {}
    pub fn register(_slot: usize, _child: &Child) {}
    pub fn unregister(_slot: usize) {}
    pub fn child_exited(child: &Child, limit: Duration) -> bool {
        let _ = (child, limit);
        false
    }
    pub fn end_group(child: &mut Child) {
        let _ = child.kill();
        let _ = child.wait();
    }
    pub fn catch_signals(_note: String) {}
    pub fn interrupted() -> bool {
        false
    }
}

/// Makes `cmd` start its process as the leader of a new process group.
pub fn own_group(cmd: &mut Command) {
    imp::own_group(cmd)
}

/// Registers engine `slot`'s (0: A, 1: B) process group for ending on a signal.
pub fn register(slot: usize, child: &Child) {
    imp::register(slot, child)
}

/// Forgets engine `slot`'s group (it was ended).
pub fn unregister(slot: usize) {
    imp::unregister(slot)
}

/// Waits up to `limit` for `child` to exit (without reaping it); whether it did.
pub fn child_exited(child: &Child, limit: Duration) -> bool {
    imp::child_exited(child, limit)
}

/// Ends `child`'s process group (`SIGTERM`, up to [`TERM_GRACE`], `SIGKILL`) and reaps `child`.
pub fn end_group(child: &mut Child) {
    imp::end_group(child)
}

/// Whether a signal caught by [`catch_signals`] is ending the process (the caller should then
/// wait for it rather than report anything).
pub fn interrupted() -> bool {
    imp::interrupted()
}

/// Catches `SIGINT`, `SIGTERM`, `SIGHUP` (the registered groups ended, `note` said after
/// "both engines ended", exit 128 + the signal) and `SIGABRT` (the groups killed); once per
/// process.
pub fn catch_signals(note: String) {
    imp::catch_signals(note)
}
