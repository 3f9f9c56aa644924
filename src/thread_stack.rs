//! Where the current thread's stack ends, asked of the platform: the
//! shell's stack guard (`src/shell/stack.rs`) measures how deep a script
//! may nest from it. Kept out of `src/shell`, whose source may not touch
//! `libc` (tests/shell_sandbox.rs).

/// The lowest usable address of this thread's stack (above its guard page).
#[cfg(any(target_os = "linux", target_os = "android"))]
pub(crate) fn measure() -> Option<usize> {
    // SAFETY: `attr` is initialised by pthread_getattr_np before it is read
    // and destroyed once; the out-pointers are valid locals.
    unsafe {
        let mut attr: libc::pthread_attr_t = std::mem::zeroed();
        if libc::pthread_getattr_np(libc::pthread_self(), &mut attr) != 0 {
            return None;
        }
        let mut addr: *mut libc::c_void = std::ptr::null_mut();
        let mut size: libc::size_t = 0;
        let mut guard: libc::size_t = 0;
        let ok = libc::pthread_attr_getstack(&attr, &mut addr, &mut size) == 0;
        libc::pthread_attr_getguardsize(&attr, &mut guard);
        libc::pthread_attr_destroy(&mut attr);
        (ok && !addr.is_null()).then(|| addr as usize + guard.max(4096))
    }
}

/// The lowest usable address of this thread's stack (above its guard page).
#[cfg(target_os = "macos")]
pub(crate) fn measure() -> Option<usize> {
    // SAFETY: both calls only read the current thread's attributes.
    unsafe {
        let this = libc::pthread_self();
        let top = libc::pthread_get_stackaddr_np(this) as usize;
        let size = libc::pthread_get_stacksize_np(this);
        Some(top.saturating_sub(size) + (16 << 10))
    }
}

/// Unknown elsewhere: runs move to a thread of their own.
#[cfg(not(any(target_os = "linux", target_os = "android", target_os = "macos")))]
pub(crate) fn measure() -> Option<usize> {
    None
}
