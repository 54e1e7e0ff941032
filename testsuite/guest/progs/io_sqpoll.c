/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * io_sqpoll MS - an io_uring with a submission-queue polling thread that
 * polls for MS milliseconds, while this thread spins in user space as
 * long, waking it; then it sleeps 500 ms and exits.
 *
 * The kernel makes the polling thread ("iou-sqp-PID") a thread of this
 * process with PF_IO_WORKER (PF_USER_WORKER since 6.4): it runs only in
 * the kernel, and its user registers are this thread's when the ring was
 * set up.  With nothing submitted it spins for its idle time
 * (sq_thread_idle) before it sleeps; this thread wakes it every 5 ms
 * (IORING_ENTER_SQ_WAKEUP).  Prints "io_sqpoll: ring FD, idle
 * MS ms".  The raw system call: no liburing.
 */
#define _GNU_SOURCE
#include <linux/io_uring.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "common.h"

int main(int argc, char **argv)
{
	long ms = guest_count_arg("io_sqpoll", "MS", argv[1], 0);
	struct io_uring_params p;
	long long end, t, wake = 0;
	int fd;

	(void)argc;
	memset(&p, 0, sizeof(p));
	p.flags = IORING_SETUP_SQPOLL;
	p.sq_thread_idle = ms;
	fd = syscall(__NR_io_uring_setup, 8, &p);
	if (fd < 0) {
		perror("io_sqpoll: io_uring_setup");
		return 1;
	}
	end = guest_now_ns() + ms * 1000000LL;
	while ((t = guest_now_ns()) < end)
		if (t >= wake) {	/* it may have gone to sleep */
			syscall(__NR_io_uring_enter, fd, 0, 0,
				IORING_ENTER_SQ_WAKEUP, NULL, 0);
			wake = t + 5000000;
		}
	usleep(500 * 1000);
	printf("io_sqpoll: ring %d, idle %ld ms\n", fd, ms);
	close(fd);
	return 0;
}
