// SPDX-License-Identifier: GPL-2.0
/*
 * read-to-pipe-async: read a file in fixed-size blocks and hand every block
 * to a writer thread that writes it to stdout, timing each read and each
 * write.  The workload of the seed thread ("t/read-to-pipe-async -f 5g >
 * 5g-new", from fio's t/ directory, which Debian's fio does not ship):
 * with stdout redirected to a new file on the same file system, the read
 * rate equals the write rate and reads compete with the writeback of what
 * was read before.
 *
 * Usage: read-to-pipe-async -f FILE [-b BLOCKSIZE]  (> NEWFILE)
 * Prints, on stderr, the seed's report (latency percentiles of readers and
 * writers in usec, read and write rate) and one machine-readable line:
 *   RTPA reads=N p50=... p99.99=... max=... read_kbs=... write_kbs=...
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define QUEUE	64

static const double pcts[] = { 50, 75, 90, 95, 99, 99.5, 99.9, 99.99, 99.999, 99.9999 };
#define NPCTS	(sizeof(pcts) / sizeof(pcts[0]))

struct lat {
	uint32_t *v;
	size_t n, cap;
};

static struct {
	pthread_mutex_t lock;
	pthread_cond_t cond;
	char *buf[QUEUE];
	size_t len[QUEUE];
	unsigned int head, count;
	int done;
} q = {
	.lock = PTHREAD_MUTEX_INITIALIZER,
	.cond = PTHREAD_COND_INITIALIZER,
};

static struct lat rlat, wlat;
static uint64_t wbytes;

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

static void lat_add(struct lat *l, uint64_t ns)
{
	if (l->n == l->cap) {
		l->cap = l->cap ? 2 * l->cap : 65536;
		l->v = realloc(l->v, l->cap * sizeof(*l->v));
		if (!l->v) {
			perror("realloc");
			exit(1);
		}
	}
	l->v[l->n++] = ns / 1000 > UINT32_MAX ? UINT32_MAX : ns / 1000;
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

static uint32_t lat_pct(const struct lat *l, double p)
{
	size_t i;

	if (!l->n)
		return 0;
	i = (size_t)(p / 100.0 * l->n);
	return l->v[i >= l->n ? l->n - 1 : i];
}

static void lat_report(struct lat *l, const char *who)
{
	size_t i;

	qsort(l->v, l->n, sizeof(*l->v), cmp_u32);
	fprintf(stderr, "Latency percentiles (usec) (%s)\n", who);
	for (i = 0; i < NPCTS; i++)
		fprintf(stderr, "\t%.4fth: %u\n", pcts[i], lat_pct(l, pcts[i]));
	fprintf(stderr, "\tmin=%u, max=%u\n", l->n ? l->v[0] : 0,
		l->n ? l->v[l->n - 1] : 0);
}

static void *writer(void *arg)
{
	(void)arg;
	for (;;) {
		char *buf;
		size_t len, off = 0;
		uint64_t t;

		pthread_mutex_lock(&q.lock);
		while (!q.count && !q.done)
			pthread_cond_wait(&q.cond, &q.lock);
		if (!q.count) {
			pthread_mutex_unlock(&q.lock);
			return NULL;
		}
		buf = q.buf[q.head];
		len = q.len[q.head];
		pthread_mutex_unlock(&q.lock);

		t = now_ns();
		while (off < len) {
			ssize_t n = write(STDOUT_FILENO, buf + off, len - off);

			if (n < 0 && errno == EINTR)
				continue;
			if (n <= 0) {
				perror("write");
				exit(1);
			}
			off += n;
		}
		lat_add(&wlat, now_ns() - t);
		wbytes += len;

		pthread_mutex_lock(&q.lock);
		q.head = (q.head + 1) % QUEUE;
		q.count--;
		pthread_cond_broadcast(&q.cond);
		pthread_mutex_unlock(&q.lock);
	}
}

int main(int argc, char **argv)
{
	const char *file = NULL;
	size_t bs = 4096;
	char *bufs[QUEUE];
	uint64_t rbytes = 0, t0, t1, secs_ns;
	unsigned int slot = 0;
	pthread_t thr;
	int c, fd, i;

	while ((c = getopt(argc, argv, "f:b:")) != -1) {
		switch (c) {
		case 'f':
			file = optarg;
			break;
		case 'b':
			bs = strtoul(optarg, NULL, 0);
			break;
		default:
			goto usage;
		}
	}
	if (!file || !bs || bs > (64 << 20) || optind != argc)
		goto usage;
	if (isatty(STDOUT_FILENO)) {
		fprintf(stderr, "read-to-pipe-async: redirect stdout to a file\n");
		return 2;
	}
	fd = open(file, O_RDONLY);
	if (fd < 0) {
		perror(file);
		return 1;
	}
	for (i = 0; i < QUEUE; i++) {
		bufs[i] = malloc(bs);
		if (!bufs[i]) {
			perror("malloc");
			return 1;
		}
	}
	if (pthread_create(&thr, NULL, writer, NULL)) {
		fprintf(stderr, "pthread_create failed\n");
		return 1;
	}

	t0 = now_ns();
	for (;;) {
		ssize_t n;
		uint64_t t;

		/* Wait for a free buffer: the writer may lag behind. */
		pthread_mutex_lock(&q.lock);
		while (q.count == QUEUE)
			pthread_cond_wait(&q.cond, &q.lock);
		pthread_mutex_unlock(&q.lock);

		t = now_ns();
		n = read(fd, bufs[slot], bs);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			perror("read");
			return 1;
		}
		if (n == 0)
			break;
		lat_add(&rlat, now_ns() - t);
		rbytes += n;

		pthread_mutex_lock(&q.lock);
		q.buf[(q.head + q.count) % QUEUE] = bufs[slot];
		q.len[(q.head + q.count) % QUEUE] = n;
		q.count++;
		pthread_cond_broadcast(&q.cond);
		pthread_mutex_unlock(&q.lock);
		slot = (slot + 1) % QUEUE;
	}
	pthread_mutex_lock(&q.lock);
	q.done = 1;
	pthread_cond_broadcast(&q.cond);
	pthread_mutex_unlock(&q.lock);
	pthread_join(thr, NULL);
	t1 = now_ns();
	secs_ns = t1 - t0 ? t1 - t0 : 1;

	lat_report(&rlat, "READERS");
	lat_report(&wlat, "WRITERS");
	fprintf(stderr, "Read rate (KB/sec) : %llu\n",
		(unsigned long long)(rbytes * 1000000000ull / 1024 / secs_ns));
	fprintf(stderr, "Write rate (KB/sec): %llu\n",
		(unsigned long long)(wbytes * 1000000000ull / 1024 / secs_ns));
	fprintf(stderr, "RTPA reads=%zu", rlat.n);
	for (i = 0; i < (int)NPCTS; i++)
		fprintf(stderr, " p%g=%u", pcts[i], lat_pct(&rlat, pcts[i]));
	fprintf(stderr, " max=%u read_kbs=%llu write_kbs=%llu secs=%.2f\n",
		rlat.n ? rlat.v[rlat.n - 1] : 0,
		(unsigned long long)(rbytes * 1000000000ull / 1024 / secs_ns),
		(unsigned long long)(wbytes * 1000000000ull / 1024 / secs_ns),
		secs_ns / 1e9);
	return 0;
usage:
	fprintf(stderr, "usage: read-to-pipe-async -f FILE [-b BLOCKSIZE] > NEWFILE\n");
	return 2;
}
