/* The JSON tape's reader in C (see CJSONTape.h): the same nodes as TapeParser (Sources/JSON/JSONTape+Parse.swift),
   the same checks, read in one loop whose open containers are a stack of their heads' indices. */
#include "CJSONTape.h"
#include "CPlainBytes.h"
#include <string.h>

#define LIKELY(x) __builtin_expect(!!(x), 1)
#define UNLIKELY(x) __builtin_expect(!!(x), 0)

/* How a string is written: all ASCII, with non-ASCII UTF-8 (checked), or with an escape (checked). */
enum { SHAPE_ASCII, SHAPE_UTF8, SHAPE_ESCAPED };

static inline int is_digit(uint8_t b) { return (uint8_t)(b - '0') < 10; }

/* The index of the first byte at or after `i` that is not whitespace (space, tab, line feed, carriage return). */
static inline long skip_spaces(const uint8_t *p, long i, long count) {
    while (i < count && p[i] <= 0x20 && (p[i] == 0x20 || p[i] == 0x0A || p[i] == 0x0D || p[i] == 0x09)) i++;
    return i;
}

/* True when the bytes from `start` up to `end` are well-formed UTF-8 (no overlong forms, no surrogates, nothing
   above U+10FFFF): what UTF8Validation.firstProblem (Swift) accepts. */
static int valid_utf8(const uint8_t *p, long start, long end) {
    long i = start;
    while (i < end) {
        uint8_t b = p[i];
        if (b < 0x80) {
            i++;
            continue;
        }
        long length;
        uint8_t low = 0x80, high = 0xBF;
        if (b >= 0xC2 && b <= 0xDF) {
            length = 2;
        } else if (b == 0xE0) {
            length = 3;
            low = 0xA0;
        } else if ((b >= 0xE1 && b <= 0xEC) || b == 0xEE || b == 0xEF) {
            length = 3;
        } else if (b == 0xED) {
            length = 3;
            high = 0x9F;
        } else if (b == 0xF0) {
            length = 4;
            low = 0x90;
        } else if (b >= 0xF1 && b <= 0xF3) {
            length = 4;
        } else if (b == 0xF4) {
            length = 4;
            high = 0x8F;
        } else {
            return 0;
        }
        if (i + length > end || p[i + 1] < low || p[i + 1] > high) return 0;
        for (long k = 2; k < length; k++) {
            if ((p[i + k] & 0xC0) != 0x80) return 0;
        }
        i += length;
    }
    return 1;
}

/* The four hex digits at `i` as a number, or -1. */
static long hex4(const uint8_t *p, long i, long count) {
    if (i + 4 > count) return -1;
    long value = 0;
    for (long k = 0; k < 4; k++) {
        uint8_t b = p[i + k];
        long digit;
        if (b >= '0' && b <= '9') {
            digit = b - '0';
        } else if (b >= 'a' && b <= 'f') {
            digit = b - 'a' + 10;
        } else if (b >= 'A' && b <= 'F') {
            digit = b - 'A' + 10;
        } else {
            return -1;
        }
        value = value << 4 | digit;
    }
    return value;
}

/* The rest of a string with an escape, from its first backslash at `j` (`high` set when a byte before it was not
   ASCII): the index of the closing quote, or -1 when an escape is unknown, a \u escape is not four hex digits or
   leaves a surrogate unpaired, a control character is not escaped, the bytes are not UTF-8, or the string does not
   end. */
static __attribute__((noinline)) long escaped_string(const uint8_t *p, long start, long j, long count, uint32_t high) {
    while (j < count) {
        uint8_t b = p[j];
        if (b == '"') return high && !valid_utf8(p, start, j) ? -1 : j;
        if (b < 0x20) return -1;
        if (b != '\\') {
            high |= b & 0x80;
            j++;
            continue;
        }
        j++;
        if (j >= count) return -1;
        switch (p[j++]) {
        case '"':
        case '\\':
        case '/':
        case 'b':
        case 'f':
        case 'n':
        case 'r':
        case 't':
            break;
        case 'u': {
            long scalar = hex4(p, j, count);
            if (scalar < 0) return -1;
            j += 4;
            if (scalar >= 0xD800 && scalar <= 0xDBFF) {
                if (j + 1 >= count || p[j] != '\\' || p[j + 1] != 'u') return -1;
                j += 2;
                long low = hex4(p, j, count);
                if (low < 0xDC00 || low > 0xDFFF) return -1;
                j += 4;
            } else if (scalar >= 0xDC00 && scalar <= 0xDFFF) {
                return -1;
            }
            break;
        }
        default:
            return -1;
        }
    }
    return -1;
}

/* The string whose opening quote is at `i`: the index of its closing quote, or -1 when it is not a valid string;
   `*shape` says how it is written. Plain runs are passed sixteen bytes at a time. */
static inline long scan_string(const uint8_t *p, long i, long count, int *shape) {
    long start = i + 1, j = start;
    uint32_t high = 0;
    for (;;) {
        if (j + 16 <= count) {
            uint32_t highs;
            uint32_t marks = notifyd_special16(p + j, &highs);
            if (marks) {
                uint32_t plain = (uint32_t)__builtin_ctz(marks);
                high |= highs & ((1u << plain) - 1);
                j += plain;
                break;
            }
            high |= highs;
            j += 16;
        } else {
            while (j < count && p[j] != '"' && p[j] != '\\' && p[j] >= 0x20) {
                high |= p[j] & 0x80;
                j++;
            }
            if (j >= count) return -1;
            break;
        }
    }
    if (LIKELY(p[j] == '"')) {
        if (LIKELY(!high)) {
            *shape = SHAPE_ASCII;
            return j;
        }
        *shape = SHAPE_UTF8;
        return valid_utf8(p, start, j) ? j : -1;
    }
    if (p[j] != '\\') return -1; /* a control character */
    *shape = SHAPE_ESCAPED;
    return escaped_string(p, start, j, count, high);
}

/* The first eight bytes of the `length` bytes at `start`, little-endian, zeros after their end. */
static inline uint64_t key_prefix(const uint8_t *p, long start, long length, long count) {
    uint64_t word = 0;
    if (start + 8 <= count) {
        memcpy(&word, p + start, 8);
        return length >= 8 ? word : word & ((UINT64_C(1) << (8 * length)) - 1);
    }
    for (long k = 0; k < length && k < 8; k++) word |= (uint64_t)p[start + k] << (8 * k);
    return word;
}

/* True when the `length` bytes of `word` are at `i`. */
static inline int literal(const uint8_t *p, long i, long count, const char *word, long length) {
    return i + length <= count && memcmp(p + i, word, (size_t)length) == 0;
}

/* Writes node `n` and answers the next node's index. */
static inline long put(notifyd_tape_node *nodes, long n, uint8_t kind, uint8_t flag, long start, long length,
                       long next, uint64_t bits) {
    notifyd_tape_node *node = nodes + n;
    node->kind = kind;
    node->flag = flag;
    node->start = (int32_t)start;
    node->length = (int32_t)length;
    node->next = (int32_t)next;
    node->count = 0;
    node->bits = bits;
    return n + 1;
}

long notifyd_tape_parse(
    const uint8_t *p, long count, long max_depth, long max_members, notifyd_tape_node *nodes, long capacity) {
    /* The heads of the open containers, outermost first. */
    int32_t open[NOTIFYD_TAPE_MAX_DEPTH];
    long depth = 0, n = 0, i;
    if (max_depth > NOTIFYD_TAPE_MAX_DEPTH) max_depth = NOTIFYD_TAPE_MAX_DEPTH;
    i = skip_spaces(p, 0, count);

value:
    if (UNLIKELY(i >= count)) return NOTIFYD_TAPE_DECLINED;
    if (UNLIKELY(n >= capacity)) return NOTIFYD_TAPE_FULL;
    switch (p[i]) {
    case '"': {
        int shape;
        long end = scan_string(p, i, count, &shape);
        if (UNLIKELY(end < 0)) return NOTIFYD_TAPE_DECLINED;
        n = put(nodes, n, shape == SHAPE_ESCAPED ? NOTIFYD_TAPE_ESCAPED_STRING : NOTIFYD_TAPE_STRING,
                shape == SHAPE_ASCII, i + 1, end - i - 1, n + 1, 0);
        i = end + 1;
        goto after_value;
    }
    case '{':
    case '[': {
        uint8_t kind = p[i] == '{' ? NOTIFYD_TAPE_OBJECT : NOTIFYD_TAPE_ARRAY;
        if (UNLIKELY(++depth > max_depth)) return NOTIFYD_TAPE_DECLINED;
        open[depth - 1] = (int32_t)n;
        n = put(nodes, n, kind, 0, i, 0, 0, 0);
        i = skip_spaces(p, i + 1, count);
        if (i < count && p[i] == (kind == NOTIFYD_TAPE_OBJECT ? '}' : ']')) {
            i++;
            goto close;
        }
        if (kind == NOTIFYD_TAPE_OBJECT) goto key;
        goto value;
    }
    case 't':
        if (!literal(p, i, count, "true", 4)) return NOTIFYD_TAPE_DECLINED;
        n = put(nodes, n, NOTIFYD_TAPE_BOOL, 1, i, 4, n + 1, 0);
        i += 4;
        goto after_value;
    case 'f':
        if (!literal(p, i, count, "false", 5)) return NOTIFYD_TAPE_DECLINED;
        n = put(nodes, n, NOTIFYD_TAPE_BOOL, 0, i, 5, n + 1, 0);
        i += 5;
        goto after_value;
    case 'n':
        if (!literal(p, i, count, "null", 4)) return NOTIFYD_TAPE_DECLINED;
        n = put(nodes, n, NOTIFYD_TAPE_NULL, 0, i, 4, n + 1, 0);
        i += 4;
        goto after_value;
    case '-':
    case '0':
    case '1':
    case '2':
    case '3':
    case '4':
    case '5':
    case '6':
    case '7':
    case '8':
    case '9': {
        long start = i, j = i;
        int negative = p[j] == '-';
        if (negative) j++;
        long digits = j;
        uint64_t magnitude = 0;
        while (j < count && is_digit(p[j]) && j - digits < 18) {
            magnitude = magnitude * 10 + (uint64_t)(p[j] - '0');
            j++;
        }
        int ends = j == count || !(is_digit(p[j]) || p[j] == '.' || (p[j] | 0x20) == 'e');
        int leading_zero = j - digits > 1 && p[digits] == '0';
        if (LIKELY(j > digits && ends && !leading_zero)) {
            int64_t value = negative ? -(int64_t)magnitude : (int64_t)magnitude;
            n = put(nodes, n, NOTIFYD_TAPE_INT, 0, start, j - start, n + 1, (uint64_t)value);
            i = j;
            goto after_value;
        }
        /* A fraction without an exponent, at most 308 digits before its point: its text is converted when it is
           read. Other numbers are declined. */
        j = digits;
        while (j < count && is_digit(p[j])) j++;
        long integer = j - digits;
        if (integer == 0 || integer > 308 || (integer > 1 && p[digits] == '0')) return NOTIFYD_TAPE_DECLINED;
        if (j >= count || p[j] != '.') return NOTIFYD_TAPE_DECLINED;
        long fraction = ++j;
        while (j < count && is_digit(p[j])) j++;
        if (j == fraction || (j < count && (p[j] | 0x20) == 'e')) return NOTIFYD_TAPE_DECLINED;
        n = put(nodes, n, NOTIFYD_TAPE_DOUBLE, 0, start, j - start, n + 1, 0);
        i = j;
        goto after_value;
    }
    default:
        return NOTIFYD_TAPE_DECLINED;
    }

key:
    /* `i` is where the next key of the innermost object should start. */
    {
        if (UNLIKELY(i >= count || p[i] != '"')) return NOTIFYD_TAPE_DECLINED;
        if (UNLIKELY(n >= capacity)) return NOTIFYD_TAPE_FULL;
        long head = open[depth - 1];
        if (UNLIKELY(++nodes[head].count > max_members)) return NOTIFYD_TAPE_DECLINED;
        long start = i + 1, length = -1;
        uint8_t ascii = 1;
        /* Most keys are ASCII and shorter than sixteen bytes: one look holds the key and its closing quote. */
        if (start + 16 <= count) {
            uint32_t highs;
            uint32_t plain = (uint32_t)__builtin_ctz(notifyd_special16(p + start, &highs) | 0x10000);
            if (plain < 16 && !(highs & ((1u << plain) - 1)) && p[start + plain] == '"') length = plain;
        }
        if (length < 0) {
            int shape;
            long end = scan_string(p, i, count, &shape);
            if (end < 0 || shape == SHAPE_ESCAPED) return NOTIFYD_TAPE_DECLINED;
            length = end - start;
            ascii = shape == SHAPE_ASCII;
        }
        uint64_t prefix = key_prefix(p, start, length, count);
        for (long k = head + 1; k < n; k = nodes[k + 1].next) {
            if (nodes[k].bits == prefix && nodes[k].length == length &&
                (length <= 8 || memcmp(p + nodes[k].start + 8, p + start + 8, (size_t)(length - 8)) == 0))
                return NOTIFYD_TAPE_DECLINED;
        }
        n = put(nodes, n, NOTIFYD_TAPE_STRING, ascii, start, length, n + 1, prefix);
        i = start + length + 1;
        if (LIKELY(i < count && p[i] == ':')) {
            i++;
        } else {
            i = skip_spaces(p, i, count);
            if (i >= count || p[i] != ':') return NOTIFYD_TAPE_DECLINED;
            i++;
        }
        i = skip_spaces(p, i, count);
        goto value;
    }

after_value:
    /* A value has ended at `i`: a separator or the end of its container follows, or the document ends. */
    if (depth == 0) {
        i = skip_spaces(p, i, count);
        return i == count ? n : NOTIFYD_TAPE_DECLINED;
    }
    {
        i = skip_spaces(p, i, count);
        if (UNLIKELY(i >= count)) return NOTIFYD_TAPE_DECLINED;
        notifyd_tape_node *head = nodes + open[depth - 1];
        uint8_t b = p[i++];
        if (head->kind == NOTIFYD_TAPE_OBJECT) {
            if (b == ',') {
                i = skip_spaces(p, i, count);
                goto key;
            }
            if (b != '}') return NOTIFYD_TAPE_DECLINED;
        } else {
            head->count++;
            if (b == ',') {
                i = skip_spaces(p, i, count);
                goto value;
            }
            if (b != ']') return NOTIFYD_TAPE_DECLINED;
        }
    }

close:
    /* The innermost container's closing byte ends before `i`. */
    {
        notifyd_tape_node *head = nodes + open[depth - 1];
        head->length = (int32_t)(i - head->start);
        head->next = (int32_t)n;
        depth--;
        goto after_value;
    }
}
