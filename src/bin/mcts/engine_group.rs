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
//!   `SIGTERM` and `SIGHUP` (`signal_hook::iterator::Signals`): a thread woken by the signal
//!   sends `SIGTERM` to the registered groups, waits up to [`TERM_GRACE`], sends `SIGKILL`, says
//!   so on standard error and exits with status 128 + the signal's number. On `SIGABRT` (a failed
//!   allocation, a panic while panicking, `kill -ABRT`) a handler registered with
//!   `signal_hook::low_level::register` sends `SIGKILL` to the groups, then ends the process as
//!   `SIGABRT`'s default action would (`emulate_default_handler`).
//!
//! The OS calls std does not offer are the `nix` crate's (`kill(2)` of a group, `waitid(2)`
//! without reaping) and `signal-hook`'s; the one `unsafe` block left is the registration of the
//! `SIGABRT` handler, which must make only async-signal-safe calls. `nix` offers `waitid` on
//! Linux, Android and FreeBSD only: elsewhere (macOS, the other BSDs, Windows) an engine is one
//! process ended with `Child::kill`, and the signals are not caught.

use std::process::{Child, Command};
use std::time::{Duration, Instant};

/// How long an engine's process group has to end after `SIGTERM` before it gets `SIGKILL`: 2 s,
/// the time an engine needs to flush a log and exit (ours exits at once; MoHex in well under a
/// second), short enough that the final results are not held up by an engine that ignores
/// `SIGTERM`.
pub const TERM_GRACE: Duration = Duration::from_secs(2);

/// How often a wait for an engine's exit looks again.
#[cfg(any(target_os = "linux", target_os = "android", target_os = "freebsd"))]
const POLL: Duration = Duration::from_millis(5);

#[cfg(any(target_os = "linux", target_os = "android", target_os = "freebsd"))]
mod imp {
    use super::*;
    use nix::sys::signal::{kill, Signal};
    use nix::sys::wait::{waitid, Id, WaitPidFlag, WaitStatus};
    use nix::unistd::Pid;
    use signal_hook::consts::{SIGABRT, SIGHUP, SIGINT, SIGTERM};
    use signal_hook::iterator::Signals;
    use std::os::unix::process::CommandExt;
    use std::sync::atomic::{AtomicBool, AtomicI32, Ordering};
    use std::sync::Once;

    /// The process groups to end on a signal (0: none), one per engine.
    static GROUPS: [AtomicI32; 2] = [AtomicI32::new(0), AtomicI32::new(0)];
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

    /// `kill(-group, sig)`; errors (the group is gone) ignored. `group` is the id of a leader
    /// this process has not reaped, so it names the engine's group and no other. Async-signal-
    /// safe (kill(2) and errno only; killpg(3) is not on POSIX's list), for [`on_abort`].
    fn kill_group(group: i32, sig: Signal) {
        if group > 0 {
            let _ = kill(Pid::from_raw(-group), sig);
        }
    }

    /// Whether process `pid` (a child of this process) has exited, without reaping it (`WNOWAIT`
    /// leaves it to `Child::wait`); true if it is no longer a child (already reaped).
    fn exited(pid: i32) -> bool {
        let flags = WaitPidFlag::WEXITED | WaitPidFlag::WNOHANG | WaitPidFlag::WNOWAIT;
        !matches!(waitid(Id::Pid(Pid::from_raw(pid)), flags), Ok(WaitStatus::StillAlive))
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
            kill_group(group, Signal::SIGTERM);
            wait_exit(group, TERM_GRACE);
        }
        // What is left of the group (a wrapper's children, helpers started in the background).
        kill_group(group, Signal::SIGKILL);
        let _ = child.wait();
    }

    /// Runs inside the `SIGABRT` handler: only async-signal-safe work (atomics, kill(2), then
    /// sigaction(2), sigprocmask(2) and raise(3) in `emulate_default_handler`), no allocation,
    /// no panic.
    fn on_abort() {
        for g in &GROUPS {
            kill_group(g.load(Ordering::SeqCst), Signal::SIGKILL);
        }
        // The default action restored, SIGABRT unblocked and raised again: the process ends as
        // it would have, also for a SIGABRT sent by kill(1), which abort(3) would not raise again
        // (and if that fails, abort(3)).
        let _ = signal_hook::low_level::emulate_default_handler(SIGABRT);
    }

    pub fn catch_signals(note: String) {
        static ONCE: Once = Once::new();
        ONCE.call_once(|| {
            // Its self-pipe is close-on-exec: the engines do not inherit it.
            let Ok(mut signals) = Signals::new([SIGINT, SIGTERM, SIGHUP]) else {
                return;
            };
            std::thread::spawn(move || {
                let Some(sig) = signals.forever().next() else {
                    return;
                };
                // Before the groups get SIGTERM: an engine's end seen by the match is then
                // known to be the signal's doing.
                INTERRUPTED.store(true, Ordering::SeqCst);
                let groups: Vec<i32> = GROUPS.iter().map(|g| g.load(Ordering::SeqCst)).filter(|&g| g > 0).collect();
                for &g in &groups {
                    kill_group(g, Signal::SIGTERM);
                }
                let deadline = Instant::now() + TERM_GRACE;
                for &g in &groups {
                    wait_exit(g, deadline.saturating_duration_since(Instant::now()));
                }
                for &g in &groups {
                    kill_group(g, Signal::SIGKILL);
                }
                let name = match sig {
                    SIGINT => "SIGINT (Ctrl-C)",
                    SIGTERM => "SIGTERM",
                    SIGHUP => "SIGHUP",
                    _ => "a signal",
                };
                crate::out::errln(&format!("mcts: interrupted by {name}: both engines ended{note}"));
                std::process::exit(128 + sig);
            });
            // SAFETY: `on_abort` makes only async-signal-safe calls (see there), allocates
            // nothing and cannot panic; SIGABRT is not one of signal-hook's forbidden signals.
            let _ = unsafe { signal_hook::low_level::register(SIGABRT, on_abort) };
        });
    }
}

#[cfg(not(any(target_os = "linux", target_os = "android", target_os = "freebsd")))]
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
