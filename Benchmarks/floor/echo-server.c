/*
 * The floor for notifyd's daemon benchmark: the least a server can do over the same transport.
 *
 * A Unix stream socket, epoll, non-blocking sockets, and the varlink framing notifyd uses: every
 * NUL-terminated frame read is answered with one fixed, small NUL-terminated reply, in order. No
 * parsing, no allocation per request. notifyd-bench measures it with the same client it drives
 * notifyd with; the ratio of the two is the cost of everything notifyd does beyond moving bytes.
 *
 * Usage: echo-server SOCKET_PATH
 * Build: cc -O2 -o echo-server echo-server.c
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

static const char reply[] = "{\"parameters\":{\"ok\":true}}";  /* sent with its NUL terminator */

struct connection {
    int fd;
    char *out;           /* replies not yet written */
    size_t out_len, out_cap;
    int watching_out;    /* EPOLLOUT is registered */
};

static volatile sig_atomic_t stopping = 0;
static void on_signal(int sig) { (void)sig; stopping = 1; }

static void close_connection(int epfd, struct connection *c) {
    epoll_ctl(epfd, EPOLL_CTL_DEL, c->fd, NULL);
    close(c->fd);
    free(c->out);
    free(c);
}

/* Writes what it can; returns -1 when the peer is gone. */
static int flush(struct connection *c) {
    size_t done = 0;
    while (done < c->out_len) {
        ssize_t n = write(c->fd, c->out + done, c->out_len - done);
        if (n > 0) { done += (size_t)n; continue; }
        if (n < 0 && errno == EINTR) continue;
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) break;
        return -1;
    }
    memmove(c->out, c->out + done, c->out_len - done);
    c->out_len -= done;
    return 0;
}

static int queue_replies(struct connection *c, size_t count) {
    size_t need = c->out_len + count * sizeof reply;
    if (need > c->out_cap) {
        size_t cap = c->out_cap ? c->out_cap : 4096;
        while (cap < need) cap *= 2;
        char *grown = realloc(c->out, cap);
        if (!grown) return -1;
        c->out = grown;
        c->out_cap = cap;
    }
    for (size_t i = 0; i < count; i++) {
        memcpy(c->out + c->out_len, reply, sizeof reply);
        c->out_len += sizeof reply;
    }
    return 0;
}

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: echo-server SOCKET_PATH\n");
        return 2;
    }
    signal(SIGPIPE, SIG_IGN);
    struct sigaction sa = {0};
    sa.sa_handler = on_signal;
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGINT, &sa, NULL);

    int listener = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    struct sockaddr_un address = {.sun_family = AF_UNIX};
    if (listener < 0 || strlen(argv[1]) >= sizeof address.sun_path) {
        fprintf(stderr, "echo-server: bad socket path\n");
        return 1;
    }
    strcpy(address.sun_path, argv[1]);
    unlink(argv[1]);
    if (bind(listener, (struct sockaddr *)&address, sizeof address) < 0 || listen(listener, 128) < 0) {
        perror("echo-server: bind/listen");
        return 1;
    }
    int epfd = epoll_create1(EPOLL_CLOEXEC);
    struct epoll_event ev = {.events = EPOLLIN, .data.ptr = NULL};
    epoll_ctl(epfd, EPOLL_CTL_ADD, listener, &ev);

    static char buffer[65536];
    struct epoll_event events[64];
    while (!stopping) {
        int ready = epoll_wait(epfd, events, 64, -1);
        if (ready < 0) {
            if (errno == EINTR) continue;
            perror("echo-server: epoll_wait");
            return 1;
        }
        for (int i = 0; i < ready; i++) {
            struct connection *c = events[i].data.ptr;
            if (c == NULL) {
                int fd;
                while ((fd = accept4(listener, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC)) >= 0) {
                    c = calloc(1, sizeof *c);
                    c->fd = fd;
                    struct epoll_event cev = {.events = EPOLLIN | EPOLLRDHUP, .data.ptr = c};
                    epoll_ctl(epfd, EPOLL_CTL_ADD, fd, &cev);
                }
                continue;
            }
            int gone = 0;
            if (events[i].events & EPOLLIN) {
                for (;;) {
                    ssize_t n = read(c->fd, buffer, sizeof buffer);
                    if (n > 0) {
                        size_t frames = 0;
                        for (char *p = buffer; (p = memchr(p, 0, (size_t)(buffer + n - p))) != NULL; p++) frames++;
                        if (frames && queue_replies(c, frames) < 0) { gone = 1; break; }
                        if ((size_t)n < sizeof buffer) break;
                        continue;
                    }
                    if (n < 0 && errno == EINTR) continue;
                    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) break;
                    gone = 1;  /* EOF or error */
                    break;
                }
            }
            if (!gone && (events[i].events & EPOLLOUT || c->out_len > 0)) gone = flush(c) < 0;
            if (gone || (events[i].events & (EPOLLHUP | EPOLLERR))) {
                close_connection(epfd, c);
                continue;
            }
            if ((c->out_len > 0) != c->watching_out) {  /* one epoll_ctl only when the interest changes */
                c->watching_out = c->out_len > 0;
                struct epoll_event cev = {.events = EPOLLIN | EPOLLRDHUP | (c->watching_out ? EPOLLOUT : 0), .data.ptr = c};
                epoll_ctl(epfd, EPOLL_CTL_MOD, c->fd, &cev);
            }
        }
    }
    unlink(argv[1]);
    return 0;
}
