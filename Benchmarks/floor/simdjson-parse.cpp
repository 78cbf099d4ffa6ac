/*
 * The floor for notifyd's payload parsing: simdjson's DOM parser on the same payload files.
 *
 * Each file is loaded once into a padded buffer and parsed over and over by one reused
 * simdjson::dom::parser (so its buffers are allocated once, as a server would keep them), for
 * RUNS runs that share SECONDS of this thread's CPU time. notifyd-bench payload measures
 * notifyd's own parser the same way; Benchmarks/run-payload-bench.sh puts the two side by side.
 *
 * Output, one line per file: PATH BYTES NS, the median nanoseconds per parse, or '-' for NS when
 * simdjson rejects the file (a bare link is not JSON). Lines starting with '#' are comments (the
 * simdjson version and the implementation chosen for this CPU).
 *
 * Usage: simdjson-parse [--seconds S] [--runs N] FILE...
 * Build: c++ -O2 -std=c++17 -o simdjson-parse simdjson-parse.cpp -lsimdjson
 */
#include <simdjson.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <string>
#include <vector>

/* This thread's CPU time in seconds: steadier than wall time on a shared machine. */
static double thread_cpu_seconds() {
    timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return double(t.tv_sec) + double(t.tv_nsec) / 1e9;
}

/* Parses `json` in batches for about `seconds` of CPU time; returns nanoseconds per parse. */
static double measure(simdjson::dom::parser &parser, const simdjson::padded_string &json, double seconds) {
    size_t parses = 0, checksum = 0;
    double start = thread_cpu_seconds(), elapsed = 0;
    while (elapsed < seconds) {
        for (int i = 0; i < 64; i++) {
            simdjson::dom::element document;
            if (parser.parse(json).get(document) == simdjson::SUCCESS) checksum += document.is_object();
        }
        parses += 64;
        elapsed = thread_cpu_seconds() - start;
    }
    if (checksum == size_t(-1)) std::puts("unreachable");
    return elapsed * 1e9 / double(parses);
}

int main(int argc, char **argv) {
    double seconds = 1.0;
    int runs = 5;
    std::vector<std::string> files;
    for (int i = 1; i < argc; i++) {
        if (std::strcmp(argv[i], "--seconds") == 0 && i + 1 < argc) {
            seconds = std::max(0.01, std::atof(argv[++i]));
        } else if (std::strcmp(argv[i], "--runs") == 0 && i + 1 < argc) {
            runs = std::max(1, std::atoi(argv[++i]));
        } else if (argv[i][0] == '-') {
            std::fprintf(stderr, "usage: simdjson-parse [--seconds S] [--runs N] FILE...\n");
            return 2;
        } else {
            files.push_back(argv[i]);
        }
    }
    simdjson::dom::parser parser;
    std::vector<simdjson::padded_string> payloads;
    std::vector<bool> parses;
    for (const std::string &file : files) {
        simdjson::padded_string json;
        if (simdjson::padded_string::load(file).get(json) != simdjson::SUCCESS) {
            std::fprintf(stderr, "simdjson-parse: cannot read %s\n", file.c_str());
            return 1;
        }
        simdjson::dom::element document;
        parses.push_back(parser.parse(json).get(document) == simdjson::SUCCESS);
        payloads.push_back(std::move(json));
    }
    std::printf("# simdjson %d.%d.%d, implementation %s, %d runs of %.2f s per file\n",
                int(simdjson::SIMDJSON_VERSION_MAJOR), int(simdjson::SIMDJSON_VERSION_MINOR),
                int(simdjson::SIMDJSON_VERSION_REVISION), simdjson::get_active_implementation()->name().c_str(), runs,
                seconds / runs);
    /* Runs alternate between the files so that load from other processes falls on all of them alike. */
    std::vector<std::vector<double>> times(files.size());
    for (int run = 0; run < runs; run++) {
        for (size_t f = 0; f < files.size(); f++) {
            if (parses[f]) times[f].push_back(measure(parser, payloads[f], seconds / runs));
        }
    }
    for (size_t f = 0; f < files.size(); f++) {
        if (!parses[f]) {
            std::printf("%s %zu -\n", files[f].c_str(), payloads[f].size());
            continue;
        }
        std::sort(times[f].begin(), times[f].end());
        std::printf("%s %zu %.1f\n", files[f].c_str(), payloads[f].size(), times[f][times[f].size() / 2]);
    }
    return 0;
}
