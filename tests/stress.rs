//! Eight threads register, unregister, dispatch and list tools on one
//! registry through the C ABI, with handlers that take a while. At the end,
//! every registered tool's `userdata_free` has run exactly once, never while a
//! call of that tool was running, and no handler ran after its free.
//!
//! `AIKIDO_STRESS_SECONDS` sets how long it runs (1 s by default);
//! tests/reliability runs it for longer under ThreadSanitizer.

mod common;

use std::ffi::{c_char, c_void, CStr};
use std::ptr;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use aikido::ffi::handler::{aikido_reply, aikido_reply_set_content};
use aikido::ffi::registry::*;
use aikido::ffi::status::*;

const THREADS: usize = 8;
const NAMES: [&CStr; 8] = [c"t0", c"t1", c"t2", c"t3", c"t4", c"t5", c"t6", c"t7"];

/// The userdata of one registration: it watches its own calls and frees.
#[derive(Default)]
struct Probe {
    registry: AtomicUsize,
    in_flight: AtomicUsize,
    frees: AtomicUsize,
    freed_while_running: AtomicBool,
    called_after_free: AtomicBool,
    /// Whether its handler dispatches another tool from inside.
    reenters: bool,
}

thread_local! {
    static NESTED: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

unsafe extern "C" fn free_probe(userdata: *mut c_void) {
    // SAFETY: registered with a live Probe (kept in an Arc until the test ends).
    unsafe {
        let probe = &*userdata.cast::<Probe>();
        if probe.in_flight.load(Ordering::SeqCst) != 0 {
            probe.freed_while_running.store(true, Ordering::SeqCst);
        }
        probe.frees.fetch_add(1, Ordering::SeqCst);
    }
}

unsafe extern "C" fn slow_handler(
    userdata: *mut c_void,
    arguments: *const c_char,
    arguments_len: usize,
    _environment: *const aikido_environment,
    reply: *mut aikido_reply,
) -> aikido_status {
    // SAFETY: its userdata is a live Probe (kept in an Arc until the test ends), and the
    // library passes arguments and a reply valid for the call (aikido_handler).
    unsafe {
        let probe = &*userdata.cast::<Probe>();
        probe.in_flight.fetch_add(1, Ordering::SeqCst);
        if probe.frees.load(Ordering::SeqCst) != 0 {
            probe.called_after_free.store(true, Ordering::SeqCst);
        }
        // Take a while, so that unregistering often meets a running call.
        if arguments_len.is_multiple_of(2) {
            std::thread::sleep(Duration::from_micros(50));
        } else {
            for _ in 0..2_000 {
                std::hint::spin_loop();
            }
        }
        if probe.reenters && !NESTED.get() {
            NESTED.set(true);
            let registry = probe.registry.load(Ordering::SeqCst) as *const aikido_registry;
            let status = dispatch(registry, NAMES[arguments_len % NAMES.len()], "{}");
            assert!(matches!(status, AIKIDO_OK | AIKIDO_ERR_UNKNOWN_TOOL), "nested dispatch gave {status}");
            NESTED.set(false);
        }
        probe.in_flight.fetch_sub(1, Ordering::SeqCst);
        aikido_reply_set_content(reply, arguments, arguments_len)
    }
}

/// One dispatch of an echoing tool: its status; on success the reply is the
/// arguments.
fn dispatch(registry: *const aikido_registry, name: &CStr, arguments: &str) -> aikido_status {
    let (status, text) = common::dispatch(registry, name, arguments);
    if status == AIKIDO_OK {
        assert_eq!(text, arguments);
    }
    status
}

/// A small, fast, seeded generator: the test needs variety, not quality.
struct XorShift(u64);

impl XorShift {
    fn below(&mut self, bound: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % bound as u64) as usize
    }
}

/// What one thread did: the probes it registered successfully, the ones
/// refused, and how many calls reached a handler.
#[derive(Default)]
struct Work {
    registered: Vec<Arc<Probe>>,
    refused: Vec<Arc<Probe>>,
    handled: usize,
}

fn worker(registry: usize, seed: u64, deadline: Instant) -> Work {
    let registry = registry as *mut aikido_registry;
    let mut random = XorShift(seed);
    let mut work = Work::default();
    let arguments = ["{}", r#"{"n":1}"#, r#"{"path":"a"}"#, r#"{"n":[1,2,3]}"#];
    while Instant::now() < deadline {
        let name = NAMES[random.below(NAMES.len())];
        match random.below(100) {
            0..=59 => {
                let status = dispatch(registry, name, arguments[random.below(arguments.len())]);
                assert!(matches!(status, AIKIDO_OK | AIKIDO_ERR_UNKNOWN_TOOL), "dispatch gave {status}");
                work.handled += usize::from(status == AIKIDO_OK);
            }
            60..=74 => {
                let probe = Arc::new(Probe { reenters: random.below(4) == 0, ..Probe::default() });
                probe.registry.store(registry as usize, Ordering::SeqCst);
                // SAFETY: each pointer is NULL, a live local, or made above and not yet freed.
                let status = unsafe {
                    aikido_registry_register(
                        registry,
                        name.as_ptr(),
                        c"Takes a while.".as_ptr(),
                        cr#"{"type":"object"}"#.as_ptr(),
                        Some(slow_handler),
                        Arc::as_ptr(&probe).cast_mut().cast(),
                        Some(free_probe),
                        ptr::null_mut(),
                    )
                };
                match status {
                    AIKIDO_OK => work.registered.push(probe),
                    AIKIDO_ERR_DUPLICATE_TOOL => work.refused.push(probe),
                    other => panic!("register gave {other}"),
                }
            }
            75..=89 => {
                // SAFETY: each pointer is NULL, a live local, or made above and not yet freed.
                let status = unsafe { aikido_registry_unregister(registry, name.as_ptr(), ptr::null_mut()) };
                assert!(matches!(status, AIKIDO_OK | AIKIDO_ERR_UNKNOWN_TOOL), "unregister gave {status}");
            }
            90..=94 => {
                let mut json = ptr::null_mut();
                // SAFETY: each pointer is NULL, a live local, or made above and not yet freed.
                let status = unsafe { aikido_registry_definitions(registry, &mut json, ptr::null_mut()) };
                assert_eq!(status, AIKIDO_OK);
                // SAFETY: json is a NUL-terminated string the library returned, not yet freed.
                let text = unsafe { CStr::from_ptr(json) }.to_str().unwrap().to_owned();
                // SAFETY: json was made above, nothing uses it any more, and it is freed once, here.
                unsafe { aikido_string_free(json) };
                assert!(aikido::is_valid_json(text.as_bytes()), "definitions: {text}");
            }
            // SAFETY: each pointer is NULL, a live local, or made above and not yet freed.
            _ => assert!(unsafe { aikido_registry_len(registry) } <= NAMES.len()),
        }
    }
    work
}

#[test]
fn concurrent_register_unregister_dispatch_free_each_userdata_once_and_never_mid_call() {
    let seconds: f64 =
        std::env::var("AIKIDO_STRESS_SECONDS").map_or(1.0, |text| text.parse().expect("a number of seconds"));
    let deadline = Instant::now() + Duration::from_secs_f64(seconds);
    let registry = aikido_registry_new() as usize;
    let workers: Vec<_> = (0..THREADS)
        .map(|index| std::thread::spawn(move || worker(registry, 0x9E37_79B9_7F4A_7C15 ^ (index as u64 + 1), deadline)))
        .collect();
    let work: Vec<Work> = workers.into_iter().map(|worker| worker.join().expect("a worker panicked")).collect();
    let registered: Vec<&Arc<Probe>> = work.iter().flat_map(|work| &work.registered).collect();
    let freed_before_the_registry = registered.iter().filter(|probe| probe.frees.load(Ordering::SeqCst) == 1).count();
    // SAFETY: registry was made above, nothing uses it any more, and it is freed once, here.
    unsafe { aikido_registry_free(registry as *mut aikido_registry) };

    let handled: usize = work.iter().map(|work| work.handled).sum();
    println!(
        "stress: {seconds} s, {THREADS} threads: {} registrations, {} freed while the registry lived, {handled} handled calls",
        registered.len(),
        freed_before_the_registry
    );
    assert!(handled > 0 && freed_before_the_registry > 0, "the stress did too little to prove anything");
    for probe in &registered {
        assert_eq!(probe.frees.load(Ordering::SeqCst), 1, "userdata_free must run exactly once per tool");
        assert!(!probe.freed_while_running.load(Ordering::SeqCst), "userdata_free ran while a call was running");
        assert!(!probe.called_after_free.load(Ordering::SeqCst), "a handler ran after its userdata_free");
    }
    for probe in work.iter().flat_map(|work| &work.refused) {
        assert_eq!(probe.frees.load(Ordering::SeqCst), 0, "a refused registration's userdata is the caller's");
    }
}
