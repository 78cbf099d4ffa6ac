#ifndef NOTIFYD_CJSONTAPE_H
#define NOTIFYD_CJSONTAPE_H
#include <stdint.h>

/* The JSON tape's reader for the documents most calls are: JSONTape (Sources/JSON) tries it first and reads with
   its own parser whatever it declines. Written in C so that the reader's state (the index, the node count, the open
   containers) stays in registers; the Swift parser keeps it in memory, reloaded at every step. */

/// One node, laid out as `JSONTape.Node` is (a test checks each field's offset and the kinds' values).
typedef struct {
    uint8_t kind;
    uint8_t flag;
    int32_t start;
    int32_t length;
    int32_t next;
    int32_t count;
    uint64_t bits;
} notifyd_tape_node;

enum {
    NOTIFYD_TAPE_NULL = 0,
    NOTIFYD_TAPE_BOOL = 1,
    NOTIFYD_TAPE_INT = 2,
    NOTIFYD_TAPE_DOUBLE = 3,
    NOTIFYD_TAPE_STRING = 4,
    NOTIFYD_TAPE_ESCAPED_STRING = 5,
    NOTIFYD_TAPE_ARRAY = 6,
    NOTIFYD_TAPE_OBJECT = 7,
};

/// What ``notifyd_tape_parse`` answers when it does not read the document: it declines (the caller's own parser
/// decides), or the nodes do not fit in `capacity` (the caller makes more room and calls again).
enum {
    NOTIFYD_TAPE_DECLINED = -1,
    NOTIFYD_TAPE_FULL = -2,
};

/// The deepest nesting the reader follows; a deeper document is declined.
#define NOTIFYD_TAPE_MAX_DEPTH 128

/// Reads the `count` bytes at `bytes`, one JSON value surrounded by whitespace, onto `nodes` (room for `capacity`):
/// the number of nodes, or NOTIFYD_TAPE_DECLINED, or NOTIFYD_TAPE_FULL.
///
/// The nodes are the ones `JSONTape`'s own parser writes. It declines whatever that parser gives up on (invalid
/// JSON, an escaped key, more than `max_members` keys in an object, containers nested deeper than `max_depth`) and,
/// besides, numbers that are neither integers of at most 18 digits nor fractions without an exponent.
long notifyd_tape_parse(
    const uint8_t *bytes, long count, long max_depth, long max_members, notifyd_tape_node *nodes, long capacity);

#endif
