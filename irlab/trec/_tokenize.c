/* irlab.trec._tokenize: the array parse of irlab.trec.readers (_numpy_parse) in one pass over a chunk's bytes.
 *
 * Optional (setup.py builds it when a C compiler is there; irlab works the same without it).  It accepts a subset of
 * what the numpy parse accepts and, for that subset, fills the same columns: every line holds exactly nfields tokens
 * of printable ASCII bytes other than '#', separated by blanks (tab, vertical tab, form feed, carriage return, space),
 * the chunk ends with a newline, ids are at most max_id bytes and numbers are written [+-]digits[.digits] with 1 to 15
 * digits.  Such a number is converted as the numpy parse does it: the digits as an exact integer divided by an exact
 * power of ten, one correctly rounded IEEE division, so the same double that strtod gives.  Anything else returns None
 * and the numpy parse (then the checked line-by-line reader, which names the line) decides.
 *
 * No numpy C API: the caller passes preallocated int64 / float64 arrays through the buffer protocol, and the GIL is
 * released during the pass (the readers parse chunks on several threads). */

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

enum { OTHER = 0, BLANK = 1, NEWLINE = 2, TOKEN = 3 };
static unsigned char byte_class[256];

static const double POW10[16] = {1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15};

/* Where the token starting at p[i] ends: the first byte that is not of class TOKEN.  The chunk ends with a newline
 * (not a token byte), so the scan stops inside it; 8 bytes at a time while 8 are left (bytes >= 128, <= 32, 127 and
 * '#' found with word operations), else byte by byte. */
static Py_ssize_t token_end(const unsigned char *p, Py_ssize_t i, Py_ssize_t n)
{
#if defined(__GNUC__) && defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    const uint64_t ones = 0x0101010101010101ULL, high = 0x8080808080808080ULL;
    while (i + 8 <= n) {
        uint64_t x, low, stop;
        memcpy(&x, p + i, 8);
        low = (x & ~high) | high;                          /* each byte's low 7 bits, with the high bit set */
        stop = x & high;                                   /* >= 128 */
        stop |= ~(low - 33 * ones) & high;                 /* low 7 bits < 33 (no borrow: every byte >= 128) */
        stop |= ((x & ~high) + ones) & high;               /* ... == 127 (no carry: 127 + 1 fits a byte) */
        stop |= ~((low ^ 0x23 * ones) - ones) & high;      /* ... == '#' (0x23; the xor keeps the high bit) */
        if (stop)
            return i + (__builtin_ctzll(stop) >> 3);
        i += 8;
    }
#endif
    while (byte_class[p[i]] == TOKEN)
        i++;
    return i;
}

/* [+-]digits[.digits], 1 to 15 digits (no '.' when integer); 0 for any other token. */
static int parse_number(const unsigned char *s, Py_ssize_t len, int integer, double *real, int64_t *whole)
{
    Py_ssize_t i = 0;
    int negative = 0, digits = 0, frac = 0, dot = 0;
    int64_t mantissa = 0;
    if (len > 17)   /* a sign, 15 digits and a '.' at most */
        return 0;
    if (s[0] == '-' || s[0] == '+') {
        negative = s[0] == '-';
        i = 1;
    }
    for (; i < len; i++) {
        unsigned int c = s[i];
        if (c - '0' <= 9u) {
            mantissa = mantissa * 10 + (c - '0');
            digits++;
            frac += dot;
        } else if (c == '.' && !dot && !integer) {
            dot = 1;
        } else {
            return 0;
        }
    }
    if (digits == 0 || digits > 15)
        return 0;
    if (integer) {
        *whole = negative ? -mantissa : mantissa;
    } else {
        double value = (double)mantissa / POW10[frac];
        *real = negative ? -value : value;
    }
    return 1;
}

/* parse_number for the usual score or grade: 1 to 8 bytes of digits and at most one '.', no sign, 8 bytes readable
 * at s.  The '.' is taken out and the digits converted 8 at a time with word arithmetic (left-padded with '0's), to
 * the same mantissa and number of decimals as parse_number's loop, then the same division.  0 for any other token:
 * parse_number decides. */
static inline int parse_short_number(const unsigned char *s, Py_ssize_t len, int integer, double *real,
                                     int64_t *whole)
{
#if defined(__GNUC__) && defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    const uint64_t low7 = 0x7F7F7F7F7F7F7F7FULL, zeros = 0x3030303030303030ULL, high4 = 0xF0F0F0F0F0F0F0F0ULL;
    uint64_t x, t, dots, mantissa;
    int digits = (int)len, frac = 0;
    if (len > 8)
        return 0;
    memcpy(&x, s, 8);
    if (len < 8)
        x &= (1ULL << (8 * len)) - 1;
    t = x ^ 0x2E2E2E2E2E2E2E2EULL;                       /* '.' bytes become 0 (bytes past the token: 0x2E) */
    dots = ~(((t & low7) + low7) | t | low7);            /* exactly the high bit of each 0 byte */
    if (dots) {
        int dot = __builtin_ctzll(dots) >> 3;
        if (integer || (dots & (dots - 1)))
            return 0;
        x = (x & ((1ULL << (8 * dot)) - 1)) | (dot == 7 ? 0 : (x >> (8 * (dot + 1))) << (8 * dot));
        digits = (int)len - 1;
        frac = digits - dot;
    }
    if (digits == 0)
        return 0;
    if (digits < 8)
        x = (x << (8 * (8 - digits))) | (zeros & ((1ULL << (8 * (8 - digits))) - 1));
    if ((x & high4) != zeros || ((x + 0x0606060606060606ULL) & high4) != zeros)   /* a byte not '0' to '9' */
        return 0;
    x -= zeros;
    x = x * 10 + (x >> 8);
    mantissa = (((x & 0x000000FF000000FFULL) * (100 + (1000000ULL << 32))) +
                (((x >> 16) & 0x000000FF000000FFULL) * (1 + (10000ULL << 32)))) >> 32;
    if (integer)
        *whole = (int64_t)mantissa;
    else
        *real = (double)mantissa / POW10[frac];
    return 1;
#else
    return 0;
#endif
}

/* dst[:width] = the len bytes at src, then NUL bytes.  A 64-bit word at a time, masked, when width bytes can be read
 * at src (width is a multiple of 8: the readers' column widths), else memcpy and memset. */
static inline void copy_padded(unsigned char *dst, const unsigned char *src, int64_t len, Py_ssize_t width,
                               int readable)
{
#if defined(__GNUC__) && defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    if (readable && width % 8 == 0) {
        Py_ssize_t k;
        for (k = 0; k < width; k += 8) {
            uint64_t x = 0;
            int64_t left = len - k;
            if (left >= 8)
                memcpy(&x, src + k, 8);
            else if (left > 0) {
                memcpy(&x, src + k, 8);
                x &= (1ULL << (8 * left)) - 1;   /* keep the token's first bytes (memory order is string order) */
            }
            memcpy(dst + k, &x, 8);
        }
        return;
    }
#endif
    memcpy(dst, src, (size_t)len);
    memset(dst + len, 0, (size_t)(width - len));
}

struct Topics;

/* Where split_chunk puts a line's tokens, and what it has seen so far.  In columns mode (split) each line's qid,
 * docno and value go to the caller's arrays; in topics mode (topic_stream) they are only located (q_*, d_*, value)
 * and handed, line by line, to topic_line. */
typedef struct {
    Py_ssize_t n;   /* the chunk's bytes */
    int value_field, integer;
    Py_ssize_t max_line, max_id, previous_first, q_max, d_max;
    void *values;
    unsigned char *q_out, *d_out;   /* each line's qid and docno, NUL padded to these widths (those that fit) */
    Py_ssize_t q_width, d_width;
    struct Topics *topics;          /* topics mode: the stream the lines go to */
    Py_ssize_t q_start, q_len, d_start, d_len;   /* topics mode: the line's qid and docno ... */
    double value;                                /* ... and score */
} Columns;

/* Token number field of line `line`, p[start:start + len], into its column (topics mode: located); 0 when the chunk
 * is not taken. */
static inline __attribute__((always_inline)) int take_token(Columns *c, const unsigned char *p, int field,
                                                            int value_field, Py_ssize_t line, Py_ssize_t start,
                                                            Py_ssize_t len, const int topics)
{
    if (field == 0) {
        /* the numpy parse's line bound (_lines_within_bound): from one line's first token to the next */
        if (line == 0 ? start > c->max_line : start - c->previous_first > c->max_line + 1)
            return 0;
        c->previous_first = start;
        if (len > c->max_id)
            return 0;
        if (topics) {
            c->q_start = start;
            c->q_len = len;
            return 1;
        }
        if (len > c->q_max)
            c->q_max = len;
        if (len <= c->q_width)
            copy_padded(c->q_out + line * c->q_width, p + start, len, c->q_width, start + c->q_width <= c->n);
    } else if (field == 2) {
        if (len > c->max_id)
            return 0;
        if (topics) {
            c->d_start = start;
            c->d_len = len;
            return 1;
        }
        if (len > c->d_max)
            c->d_max = len;
        if (len <= c->d_width)
            copy_padded(c->d_out + line * c->d_width, p + start, len, c->d_width, start + c->d_width <= c->n);
    } else if (field == value_field) {
        double *real = topics ? &c->value : (double *)c->values + line;
        int64_t *whole = topics ? NULL : (int64_t *)c->values + line;
        return (start + 8 <= c->n && parse_short_number(p + start, len, c->integer, real, whole)) ||
               parse_number(p + start, len, c->integer, real, whole);
    }
    return 1;
}

#if defined(__SSE2__) && defined(__GNUC__)
#include <emmintrin.h>
#define LINE_MASKS 1
/* The 64 bytes at p as bit masks (bit k: byte k): newlines, separators (blanks and newlines), and bytes of class
 * OTHER (neither a blank, a newline nor a token byte).  16 bytes per step with SSE2, x86-64's baseline. */
static inline void line_masks(const unsigned char *p, uint64_t *newline, uint64_t *separator, uint64_t *other)
{
    const __m128i nl = _mm_set1_epi8('\n'), space = _mm_set1_epi8(' '), to_low = _mm_set1_epi8((char)(128 - 9)),
                  below = _mm_set1_epi8((char)(-128 + 5)), blank_or_less = _mm_set1_epi8(32),
                  del = _mm_set1_epi8(127), hash = _mm_set1_epi8('#');
    uint64_t n = 0, sep = 0, bad = 0;
    int k;
    for (k = 0; k < 4; k++) {
        __m128i x = _mm_loadu_si128((const __m128i *)(p + 16 * k));
        __m128i is_nl = _mm_cmpeq_epi8(x, nl);
        __m128i nine_to_13 = _mm_cmplt_epi8(_mm_add_epi8(x, to_low), below);   /* \t \n \v \f \r */
        __m128i blank = _mm_or_si128(_mm_cmpeq_epi8(x, space), _mm_andnot_si128(is_nl, nine_to_13));
        __m128i token = _mm_andnot_si128(_mm_or_si128(_mm_cmpeq_epi8(x, del), _mm_cmpeq_epi8(x, hash)),
                                         _mm_cmpgt_epi8(x, blank_or_less));   /* signed: bytes >= 128 are not */
        uint64_t m_nl = (uint16_t)_mm_movemask_epi8(is_nl), m_blank = (uint16_t)_mm_movemask_epi8(blank),
                 m_token = (uint16_t)_mm_movemask_epi8(token);
        n |= m_nl << (16 * k);
        sep |= (m_nl | m_blank) << (16 * k);
        bad |= (~(m_nl | m_blank | m_token) & 0xFFFF) << (16 * k);
    }
    *newline = n;
    *separator = sep;
    *other = bad;
}
#endif

#ifdef LINE_MASKS
/* A line's nfields tokens from the bit masks of their starts and ends (the byte after each): 0 when it has fewer or
 * more, or take_token refuses one. */
static inline __attribute__((always_inline)) int masked_tokens(Columns *c, const unsigned char *p, Py_ssize_t i,
                                                               Py_ssize_t line, uint64_t starts, uint64_t ends,
                                                               const int nfields, const int value_field,
                                                               const int topics)
{
    int field;
    for (field = 0; field < nfields; field++) {
        int a, z;
        if (!starts)
            return 0;   /* fewer tokens than fields */
        a = __builtin_ctzll(starts);
        z = __builtin_ctzll(ends);
        starts &= starts - 1;
        ends &= ends - 1;
        if ((field == 0 || field == 2 || field == value_field) &&
            !take_token(c, p, field, value_field, line, i + a, z - a, topics))
            return 0;
    }
    return starts == 0;   /* else more */
}
#endif

static inline int topic_line(struct Topics *t, const unsigned char *p, const Columns *c);

/* One pass over the chunk.  Returns the number of lines, -1 when the chunk is not of the accepted shape (or, in
 * topics mode, topic_line refuses a line), or -2 when it has more than capacity lines.
 * A line of under 64 bytes (with 64 bytes readable) is split from bit masks of its bytes, each token's start and
 * end found with a count of trailing zeros, so no token's end waits for the previous one's bytes; any other line
 * byte by byte, the same checks in the same order of tokens.  `topics` is a constant in each caller (split_columns,
 * split_topics), so that each mode is compiled without the other's branches. */
static inline __attribute__((always_inline)) Py_ssize_t split_chunk(const unsigned char *p, Py_ssize_t n,
                                                                    int nfields, Py_ssize_t capacity,
                                                                    Columns *columns, const int topics)
{
    Columns c = *columns;
    Py_ssize_t i = 0, line = 0;
    if (n == 0 || p[n - 1] != '\n')   /* so every scan below stops at a newline before the end */
        return -1;
    while (i < n) {
        int field = 0;
        if (line == capacity)
            return -2;   /* more lines than the caller made room for */
#ifdef LINE_MASKS
        if (i + 64 <= n) {
            uint64_t newline, separator, other;
            line_masks(p + i, &newline, &separator, &other);
            if (newline) {
                int end = __builtin_ctzll(newline);
                uint64_t inside = (1ULL << end) - 1;   /* the line's bytes before its newline (end <= 63) */
                uint64_t token = ~separator & inside;
                uint64_t starts = token & ~(token << 1), ends = ~token & (token << 1) & ((inside << 1) | 1);
                if (other & inside)
                    return -1;   /* the byte by byte scan declines these lines too */
                /* a run's and a qrels file's layouts as constants, so that the compiler unrolls the fields */
                if (!(nfields == 6 && c.value_field == 4 ? masked_tokens(&c, p, i, line, starts, ends, 6, 4, topics) :
                      nfields == 4 && c.value_field == 3 ? masked_tokens(&c, p, i, line, starts, ends, 4, 3, topics) :
                      masked_tokens(&c, p, i, line, starts, ends, nfields, c.value_field, topics)))
                    return -1;
                if (topics && !topic_line(c.topics, p, &c))
                    return -1;
                i += end + 1;
                line++;
                continue;
            }
        }
#endif
        for (;;) {
            Py_ssize_t start;
            while (byte_class[p[i]] == BLANK)
                i++;
            if (byte_class[p[i]] == NEWLINE) {
                if (field != nfields)
                    return -1;
                i++;
                break;
            }
            if (byte_class[p[i]] != TOKEN || field == nfields)
                return -1;
            start = i;
            i = token_end(p, i, n);
            if (!take_token(&c, p, field, c.value_field, line, start, i - start, topics))
                return -1;
            field++;
        }
        if (topics && !topic_line(c.topics, p, &c))
            return -1;
        line++;
    }
    if (n - c.previous_first > c.max_line + 1)
        return -1;
    *columns = c;
    return line;
}

static Py_ssize_t split_columns(const unsigned char *p, Py_ssize_t n, int nfields, Py_ssize_t capacity,
                                Columns *columns)
{
    return split_chunk(p, n, nfields, capacity, columns, 0);
}

static PyObject *split(PyObject *self, PyObject *args)
{
    Py_buffer data, values, q_out, d_out;
    int nfields, value_field, integer;
    Py_ssize_t max_line, max_id, lines, capacity, q_width, d_width;
    Columns c;
    if (!PyArg_ParseTuple(args, "y*iipnnw*w*nw*n", &data, &nfields, &value_field, &integer, &max_line, &max_id,
                          &values, &q_out, &q_width, &d_out, &d_width))
        return NULL;
    capacity = values.len / 8;
    if (nfields < 3 || value_field < 1 || value_field >= nfields || value_field == 2 || q_width < 0 || d_width < 0 ||
        q_out.len < q_width * capacity || d_out.len < d_width * capacity) {
        PyBuffer_Release(&data);
        PyBuffer_Release(&values);
        PyBuffer_Release(&q_out);
        PyBuffer_Release(&d_out);
        PyErr_SetString(PyExc_ValueError, "split: bad layout or buffer sizes");
        return NULL;
    }
    c = (Columns){data.len, value_field, integer, max_line, max_id, 0, 0, 0, values.buf, q_out.buf, d_out.buf,
                  q_width, d_width, NULL, 0, 0, 0, 0, 0.0};
    Py_BEGIN_ALLOW_THREADS
    lines = split_columns((const unsigned char *)data.buf, data.len, nfields, capacity, &c);
    Py_END_ALLOW_THREADS
    PyBuffer_Release(&data);
    PyBuffer_Release(&values);
    PyBuffer_Release(&q_out);
    PyBuffer_Release(&d_out);
    if (lines == -2)
        Py_RETURN_FALSE;
    if (lines < 0)
        Py_RETURN_NONE;
    return Py_BuildValue("nnn", lines, c.q_max, c.d_max);
}

/* readers._mix_words' key of one (topic index, row of width native uint64 words): the same uint64 arithmetic in the
 * same order, so the same bits. */
static inline uint64_t pair_key(int64_t topic, const unsigned char *w, Py_ssize_t width)
{
    const uint64_t ct = 0xD6E8FEB86659FD93ULL;
    uint64_t k = (uint64_t)topic * ct + ct;
    Py_ssize_t j;
    for (j = 0; j < width; j++) {
        uint64_t c = (0x9E3779B97F4A7C15ULL + 0x632BE59BD9B4E019ULL * (uint64_t)j) | 1, x;
        memcpy(&x, w + 8 * j, 8);
        x *= c;
        x ^= x >> 29;
        x *= 0x94D049BB133111EBULL;
        k += x;
    }
    k ^= k >> 31;
    k *= 0xBF58476D1CE4E5B9ULL;
    k ^= k >> 29;
    return k;
}

/* readers._mix_words in one pass: out[r] = the 64-bit key of (topic_idx[r], the width words of row r), the same
 * uint64 arithmetic (wrapping multiplications, xor-shifts) in the same order, so the same keys bit for bit. */
static PyObject *mix_keys(PyObject *self, PyObject *args)
{
    Py_buffer topics, words, out;
    Py_ssize_t width, count, r;
    int ok;
    if (!PyArg_ParseTuple(args, "y*y*nw*", &topics, &words, &width, &out))
        return NULL;
    count = topics.len / 8;
    ok = width >= 0 && out.len >= 8 * count && words.len >= 8 * width * count;
    if (ok) {
        const int64_t *t = (const int64_t *)topics.buf;
        const unsigned char *w = (const unsigned char *)words.buf;
        unsigned char *o = (unsigned char *)out.buf;
        Py_BEGIN_ALLOW_THREADS
        for (r = 0; r < count; r++) {
            uint64_t k = pair_key(t[r], w + 8 * width * r, width);
            memcpy(o + 8 * r, &k, 8);
        }
        Py_END_ALLOW_THREADS
    }
    PyBuffer_Release(&topics);
    PyBuffer_Release(&words);
    PyBuffer_Release(&out);
    if (!ok) {
        PyErr_SetString(PyExc_ValueError, "mix_keys: buffer sizes do not match");
        return NULL;
    }
    Py_RETURN_NONE;
}

/* The two tables below are open addressing with linear probing from a key's top bits (pair_keys' keys are
 * well mixed, so equal top bits are as rare as for random numbers), a few times larger than what they hold: most
 * probes end at the first slot, a branch the processor predicts. */
static int table_bits(Py_ssize_t rows, int spare)
{
    int bits = 4;
    while (bits < 40 && ((Py_ssize_t)1 << bits) < ((Py_ssize_t)1 << spare) * rows)
        bits++;
    return bits;
}

/* Blocks of rows as the callers pass them: starts in increasing order, the first at row 0, all inside the n rows. */
static int blocks_in_rows(const int64_t *starts, Py_ssize_t blocks, Py_ssize_t n)
{
    Py_ssize_t b;
    for (b = 0; b < blocks; b++)
        if (b == 0 ? starts[b] != 0 : starts[b] <= starts[b - 1] || starts[b] >= n)
            return 0;
    return 1;
}

typedef struct {
    uint64_t key;
    int64_t row;   /* + 1; 0 is empty */
} KeySlot;

/* join_blocks' join: every (i, p) with keys[i] == table_keys[p], i ascending, and for one i the p in ascending order (equal
 * keys share their first slot and were inserted in that order, so a probe meets them in that order); the count,
 * or -1 when more than capacity pairs (the caller then joins with numpy).  Equal keys are candidates only: the caller
 * compares the bytes, as for numpy's join. */
static Py_ssize_t join_pairs(const uint64_t *keys, Py_ssize_t n, const uint64_t *tkeys, Py_ssize_t m,
                             int64_t *out_i, int64_t *out_p, Py_ssize_t capacity)
{
    int bits = table_bits(m, 3), shift = 64 - bits;
    size_t mask = ((size_t)1 << bits) - 1, h;
    Py_ssize_t r, p, found = 0;
    KeySlot *slot = calloc(mask + 1, sizeof(KeySlot));
    if (slot == NULL)
        return -2;
    for (p = 0; p < m; p++) {
        for (h = (size_t)(tkeys[p] >> shift); slot[h].row; h = (h + 1) & mask)
            ;
        slot[h].key = tkeys[p];
        slot[h].row = p + 1;
    }
    for (r = 0; r < n; r++) {
        uint64_t key = keys[r];
        for (h = (size_t)(key >> shift); slot[h].row; h = (h + 1) & mask) {
            if (slot[h].key == key) {
                if (found == capacity) {
                    free(slot);
                    return -1;
                }
                out_i[found] = r;
                out_p[found++] = slot[h].row - 1;
            }
        }
    }
    free(slot);
    return found;
}

/* join_blocks' check: the first row (in row order) whose width words equal those of an earlier row of its block (blocks:
 * rows starts[b] to starts[b + 1], the last one to n), or -1.  Keys say which rows may be equal; the words decide.
 * One table for all blocks, never cleared: a slot holding a row of an earlier block (< the block's first row) is
 * empty for this one, so every probe sequence of the block is the one a fresh table would give. */
static Py_ssize_t repeat_in_blocks(const uint64_t *keys, Py_ssize_t n, const int64_t *starts, Py_ssize_t blocks,
                                   const uint64_t *words, Py_ssize_t width)
{
    Py_ssize_t b, r, longest = 0;
    int bits, shift;
    size_t mask, h;
    KeySlot *slot;
    for (b = 0; b < blocks; b++) {
        Py_ssize_t end = b + 1 < blocks ? starts[b + 1] : n;
        if (end - starts[b] > longest)
            longest = end - starts[b];
    }
    bits = table_bits(longest, 2);
    shift = 64 - bits;
    mask = ((size_t)1 << bits) - 1;
    slot = calloc(mask + 1, sizeof(KeySlot));
    if (slot == NULL)
        return -2;
    for (b = 0; b < blocks; b++) {
        Py_ssize_t a = starts[b], end = b + 1 < blocks ? starts[b + 1] : n;
        for (r = a; r < end; r++) {
            uint64_t key = keys[r];
            for (h = (size_t)(key >> shift); slot[h].row > a; h = (h + 1) & mask) {
                if (slot[h].key == key &&
                    memcmp(words + (slot[h].row - 1) * width, words + r * width, 8 * (size_t)width) == 0) {
                    free(slot);
                    return r;
                }
            }
            slot[h].key = key;
            slot[h].row = r + 1;
        }
    }
    free(slot);
    return -1;
}

/* join_blocks: the streamed join of a chunk of whole topics in one call: a repeated docno looked for in each block
 * (repeat_in_blocks), then every (row, p) with keys[row] == table_keys[p] (join_pairs).  The count of pairs, -1 when a
 * docno repeats in a block, -2 when out_i, out_p hold too few pairs (numpy then decides). */
static PyObject *join_blocks(PyObject *self, PyObject *args)
{
    Py_buffer keys, starts, words, tkeys, out_i, out_p;
    Py_ssize_t width, n, blocks, capacity, found = 0;
    int ok;
    if (!PyArg_ParseTuple(args, "y*y*y*ny*w*w*", &keys, &starts, &words, &width, &tkeys, &out_i, &out_p))
        return NULL;
    n = keys.len / 8;
    blocks = starts.len / 8;
    capacity = out_i.len / 8 < out_p.len / 8 ? out_i.len / 8 : out_p.len / 8;
    ok = width >= 0 && words.len >= 8 * width * n && n > 0 && blocks > 0 &&
         blocks_in_rows((const int64_t *)starts.buf, blocks, n);
    if (ok) {
        Py_BEGIN_ALLOW_THREADS
        Py_ssize_t repeat = repeat_in_blocks((const uint64_t *)keys.buf, n, (const int64_t *)starts.buf, blocks,
                                             (const uint64_t *)words.buf, width);
        if (repeat >= 0)
            found = -1;
        else if (repeat == -2)
            found = -3;   /* out of memory */
        else {
            found = join_pairs((const uint64_t *)keys.buf, n, (const uint64_t *)tkeys.buf, tkeys.len / 8,
                               (int64_t *)out_i.buf, (int64_t *)out_p.buf, capacity);
            found = found == -1 ? -2 : found == -2 ? -3 : found;
        }
        Py_END_ALLOW_THREADS
    }
    PyBuffer_Release(&keys);
    PyBuffer_Release(&starts);
    PyBuffer_Release(&words);
    PyBuffer_Release(&tkeys);
    PyBuffer_Release(&out_i);
    PyBuffer_Release(&out_p);
    if (!ok) {
        PyErr_SetString(PyExc_ValueError, "join_blocks: blocks or buffer sizes do not match");
        return NULL;
    }
    if (found == -3)
        return PyErr_NoMemory();
    return PyLong_FromSsize_t(found);
}

/* presorted_ranks: ranks.topic_ranks for blocks of rows (one topic each, from starts[b]) already in non-increasing
 * score order: the 0-based rank in trec_eval's order (score descending, then docno descending) of each of rows is
 * its place in its block, moved inside its run of equal scores by the docnos (width words, compared as the bytes
 * they hold) that sort before it.  0 (nothing written) when a score rises inside a block, or a run of equal scores
 * is longer than max_tie (numpy's sort is then the better tool); else 1. */
static int ranks_in_blocks(const double *score, Py_ssize_t n, const int64_t *starts, Py_ssize_t blocks,
                           const unsigned char *words, Py_ssize_t width, const int64_t *rows, Py_ssize_t k,
                           Py_ssize_t max_tie, int64_t *out)
{
    Py_ssize_t b, r, j;
    size_t bytes = 8 * (size_t)width;
    for (b = 0; b < blocks; b++) {
        Py_ssize_t end = b + 1 < blocks ? starts[b + 1] : n;
        for (r = starts[b] + 1; r < end; r++)
            if (score[r] > score[r - 1])
                return 0;
    }
    for (j = 0; j < k; j++) {
        Py_ssize_t row = rows[j], low = 0, high = blocks - 1, first, end, lo, hi, t, before = 0;
        double s = score[row];
        while (low < high) {   /* the block holding row: the last start <= row */
            Py_ssize_t mid = (low + high + 1) / 2;
            if (starts[mid] <= row)
                low = mid;
            else
                high = mid - 1;
        }
        first = starts[low];
        end = low + 1 < blocks ? starts[low + 1] : n;
        for (lo = row; lo > first && score[lo - 1] == s && row - lo < max_tie; lo--)
            ;
        for (hi = row + 1; hi < end && score[hi] == s && hi - lo <= max_tie; hi++)
            ;
        if (hi - lo > max_tie)
            return 0;
        for (t = lo; t < hi; t++)
            before += t != row && memcmp(words + t * bytes, words + row * bytes, bytes) > 0;
        out[j] = lo - first + before;
    }
    return 1;
}

static PyObject *presorted_ranks(PyObject *self, PyObject *args)
{
    Py_buffer score, starts, words, rows, out;
    Py_ssize_t n, blocks, width, k, max_tie, j;
    int ok, done = 0;
    if (!PyArg_ParseTuple(args, "y*y*y*ny*nw*", &score, &starts, &words, &width, &rows, &max_tie, &out))
        return NULL;
    n = score.len / 8;
    blocks = starts.len / 8;
    k = rows.len / 8;
    ok = width >= 0 && max_tie >= 1 && words.len >= 8 * width * n && out.len >= 8 * k && n > 0 && blocks > 0;
    ok = ok && blocks_in_rows((const int64_t *)starts.buf, blocks, n);
    for (j = 0; ok && j < k; j++)
        ok = ((const int64_t *)rows.buf)[j] >= 0 && ((const int64_t *)rows.buf)[j] < n;
    if (ok) {
        Py_BEGIN_ALLOW_THREADS
        done = ranks_in_blocks((const double *)score.buf, n, (const int64_t *)starts.buf, blocks,
                               (const unsigned char *)words.buf, width, (const int64_t *)rows.buf, k, max_tie,
                               (int64_t *)out.buf);
        Py_END_ALLOW_THREADS
    }
    PyBuffer_Release(&score);
    PyBuffer_Release(&starts);
    PyBuffer_Release(&words);
    PyBuffer_Release(&rows);
    PyBuffer_Release(&out);
    if (!ok) {
        PyErr_SetString(PyExc_ValueError, "presorted_ranks: blocks, rows or buffer sizes do not match");
        return NULL;
    }
    return PyBool_FromLong(done);
}

/* topic_docno_order: numpy's lexsort((docnos, topic)) of qrels rows (read_qrels' order) without comparing strings across
 * topics: a counting sort by topic, then each topic's rows sorted by their width docno bytes (memcmp: numpy's order of
 * an S array), ties by row, so the order is lexsort's (stable) whatever the rows hold.  Insertion sort for a topic of
 * up to 24 rows (a qrels topic's usual size), a merge sort through tmp beyond. */
static int docno_before(const unsigned char *docnos, Py_ssize_t width, int64_t a, int64_t b)
{
    int c = memcmp(docnos + a * width, docnos + b * width, (size_t)width);
    return c < 0 || (c == 0 && a < b);
}

static void sort_rows(int64_t *rows, int64_t *tmp, Py_ssize_t n, const unsigned char *docnos, Py_ssize_t width)
{
    Py_ssize_t i, j, half, a, b;
    if (n <= 24) {
        for (i = 1; i < n; i++) {
            int64_t row = rows[i];
            for (j = i; j > 0 && docno_before(docnos, width, row, rows[j - 1]); j--)
                rows[j] = rows[j - 1];
            rows[j] = row;
        }
        return;
    }
    half = n / 2;
    sort_rows(rows, tmp, half, docnos, width);
    sort_rows(rows + half, tmp, n - half, docnos, width);
    memcpy(tmp, rows, (size_t)half * sizeof(int64_t));
    for (i = 0, a = 0, b = half; a < half; i++)   /* rows[i] never overtakes rows[b]: i <= b */
        rows[i] = (b < n && docno_before(docnos, width, rows[b], tmp[a])) ? rows[b++] : tmp[a++];
}

static PyObject *topic_docno_order(PyObject *self, PyObject *args)
{
    Py_buffer topic, docnos, out;
    Py_ssize_t n, width, topics, r, t;
    int64_t *start = NULL, *tmp = NULL;
    int ok;
    if (!PyArg_ParseTuple(args, "y*y*nnw*", &topic, &docnos, &width, &topics, &out))
        return NULL;
    n = topic.len / 8;
    ok = width >= 1 && topics >= 1 && docnos.len >= width * n && out.len >= 8 * n;
    for (r = 0; ok && r < n; r++)
        ok = ((const int64_t *)topic.buf)[r] >= 0 && ((const int64_t *)topic.buf)[r] < topics;
    if (ok) {
        start = calloc((size_t)topics + 1, sizeof(int64_t));
        tmp = malloc(((size_t)n / 2 + 1) * sizeof(int64_t));
    }
    if (ok && start != NULL && tmp != NULL) {
        const int64_t *tp = (const int64_t *)topic.buf;
        int64_t *order = (int64_t *)out.buf;
        Py_BEGIN_ALLOW_THREADS
        for (r = 0; r < n; r++)
            start[tp[r] + 1]++;
        for (t = 0; t < topics; t++)
            start[t + 1] += start[t];
        for (r = 0; r < n; r++)   /* rows of a topic in row order: start[t] ends at topic t's end */
            order[start[tp[r]]++] = r;
        for (t = topics; t > 0; t--)
            start[t] = start[t - 1];
        start[0] = 0;
        for (t = 0; t < topics; t++)
            sort_rows(order + start[t], tmp, start[t + 1] - start[t], (const unsigned char *)docnos.buf, width);
        Py_END_ALLOW_THREADS
    }
    free(start);
    free(tmp);
    PyBuffer_Release(&topic);
    PyBuffer_Release(&docnos);
    PyBuffer_Release(&out);
    if (!ok) {
        PyErr_SetString(PyExc_ValueError, "topic_docno_order: a topic index out of range or buffer sizes do not match");
        return NULL;
    }
    if (start == NULL || tmp == NULL)
        return PyErr_NoMemory();
    Py_RETURN_NONE;
}

/* topic_stream: a run grouped by topic reduced while it is split, without a column per line (irlab.trec.stream's
 * _Reducer, for the chunks split takes).  Each line is located as split locates it (split_chunk in topics mode) and
 * goes to topic_line: a qid unlike the last line's closes that topic and opens the next; the docno is copied into
 * the open topic's rows and looked up in one small hash table that holds the topic's judgments and its docnos so
 * far, so that a docno read twice and a judged docno are both found by that one probe.  A closed topic's judged rows
 * are ranked (trec_eval's order: score descending, then docno descending) and kept as (topic, rank, qrels row); the
 * rest of it is forgotten.  Ids are at most ID_SLOT bytes (the readers' _MAX_VECTOR_ID), kept NUL padded to that
 * width, so that they compare and hash as four words.
 * What it cannot take the caller gives to _Reducer: a line split declines, a probe longer than MAX_PROBE (only
 * crafted docnos collide that often; the numpy path sorts instead of hashing).  A topic whose lines are not together,
 * or a docno read twice in a topic, ends the stream: the whole-file reader then reads the run and names the line. */
#define ID_SLOT 32
#define MAX_PROBE 64
#define TOPIC_MAX_TIE 64   /* ranks.COMPILED_MAX_TIE: a longer run of equal scores sorts its topic */

enum { TAKEN = 0, DECLINED = 1, NOT_STREAMABLE = 2, NO_MEMORY = 3 };

typedef struct {
    uint64_t hash;
    uint32_t generation;   /* the topic it belongs to: a slot of an earlier topic is empty */
    int32_t ref;           /* >= 0: the topic's row ref; < 0: its judgment -ref - 1 */
} TopicSlot;

typedef struct {
    int64_t *at;
    Py_ssize_t size, room;
} Int64s;

typedef struct Topics {
    Py_buffer q_topics, q_docnos, q_order, q_first;   /* the qrels: sorted topic names, docnos, rows by topic */
    Py_ssize_t q_topic_width, q_docno_width, q_topic_count, max_line;
    /* the open topic */
    int open;
    unsigned char name[ID_SLOT];
    Py_ssize_t name_length;
    int64_t code, ordinal;                   /* its qrels topic (-1: none) and its place in the file */
    unsigned char *docs;                     /* its rows' docnos, ID_SLOT bytes each */
    double *scores;
    Py_ssize_t rows, row_room;
    int sorted;                              /* no score rose so far */
    unsigned char *judged_docs;              /* its judgments' docnos, ID_SLOT bytes each */
    int64_t *judged_qrow, *judged_by;        /* ... their qrels rows, and the row that retrieved them (-1: none) */
    Py_ssize_t judged, judged_room;
    int64_t *hit_row, *hit_judgment, *rank_of;   /* its judged rows, in row order, and their ranks */
    Py_ssize_t hits, hit_room, rank_room;
    TopicSlot *table;
    size_t mask;
    Py_ssize_t used;
    uint32_t generation;
    /* every topic so far: names (ID_SLOT bytes each) and a set of them */
    unsigned char *names;
    Py_ssize_t topics, name_room, name_max;
    int64_t *name_set;                       /* ordinal + 1, 0 empty */
    size_t name_mask;
    Int64s nret, seg, pos, qrow;
    int status;
} Topics;

static inline uint64_t id_hash(const unsigned char *id)
{
    uint64_t a, b, c, d, h;
    memcpy(&a, id, 8);
    memcpy(&b, id + 8, 8);
    memcpy(&c, id + 16, 8);
    memcpy(&d, id + 24, 8);
    h = a * 0x9E3779B97F4A7C15ULL + b * 0xC2B2AE3D27D4EB4FULL + c * 0x165667B19E3779F9ULL + d * 0xD6E8FEB86659FD93ULL;
    h ^= h >> 31;
    h *= 0xBF58476D1CE4E5B9ULL;
    h ^= h >> 29;
    return h;
}

/* Room for `need` items in up to three arrays that share one count of items `room` (NULL for none): doubled. */
static int room_for(Py_ssize_t *room, Py_ssize_t need, void **a, size_t a_item, void **b, size_t b_item, void **c,
                    size_t c_item)
{
    Py_ssize_t size = *room ? *room : 64;
    void *more;
    if (need <= *room)
        return 1;
    while (size < need)
        size *= 2;
    if ((more = realloc(*a, (size_t)size * a_item)) == NULL)
        return 0;
    *a = more;
    if (b != NULL) {
        if ((more = realloc(*b, (size_t)size * b_item)) == NULL)
            return 0;
        *b = more;
    }
    if (c != NULL) {
        if ((more = realloc(*c, (size_t)size * c_item)) == NULL)
            return 0;
        *c = more;
    }
    *room = size;
    return 1;
}

static inline int push(Int64s *v, int64_t x)
{
    if (!room_for(&v->room, v->size + 1, (void **)&v->at, sizeof(int64_t), NULL, 0, NULL, 0))
        return 0;
    v->at[v->size++] = x;
    return 1;
}

/* The slot of `hash` in the open topic's table: its first empty slot or one whose id equals `id`, or NULL after
 * MAX_PROBE slots. */
static inline TopicSlot *probe(Topics *t, uint64_t hash, const unsigned char *id)
{
    size_t h = (size_t)(hash ^ (hash >> 32)) & t->mask;
    int k;
    for (k = 0; k < MAX_PROBE; k++, h = (h + 1) & t->mask) {
        TopicSlot *s = t->table + h;
        if (s->generation != t->generation)
            return s;
        if (s->hash == hash &&
            memcmp(s->ref >= 0 ? t->docs + ID_SLOT * s->ref : t->judged_docs + ID_SLOT * (-s->ref - 1), id,
                   ID_SLOT) == 0)
            return s;
    }
    return NULL;
}

/* id's slot in the table made ref's, unless it holds id already (a judged row's docno has its judgment's slot); 0 when
 * the probe is too long. */
static int put_back(Topics *t, const unsigned char *id, int32_t ref)
{
    uint64_t hash = id_hash(id);
    TopicSlot *s = probe(t, hash, id);
    if (s == NULL)
        return 0;
    if (s->generation != t->generation)
        *s = (TopicSlot){hash, t->generation, ref};
    return 1;
}

/* The open topic's judgments and rows so far into the table (emptied: a new generation, or a new table); 0 when a
 * probe is too long. */
static int refill(Topics *t)
{
    Py_ssize_t k;
    for (k = 0; k < t->judged; k++)
        if (!put_back(t, t->judged_docs + ID_SLOT * k, (int32_t)(-k - 1)))
            return 0;
    for (k = 0; k < t->rows; k++)
        if (!put_back(t, t->docs + ID_SLOT * k, (int32_t)k))
            return 0;
    return 1;
}

/* Room in the table for one more id, which stays at most half full: TAKEN, NO_MEMORY, or DECLINED when a probe is
 * too long while the larger table is filled. */
static int table_room(Topics *t)
{
    size_t size;
    TopicSlot *fresh;
    if (t->table != NULL && 2 * (size_t)(t->used + 1) <= t->mask + 1)
        return TAKEN;
    size = t->table != NULL ? 2 * (t->mask + 1) : 256;
    fresh = calloc(size, sizeof(TopicSlot));
    if (fresh == NULL)
        return NO_MEMORY;
    free(t->table);
    t->table = fresh;
    t->mask = size - 1;
    t->generation = 1;   /* calloc's slots are of generation 0: empty */
    return refill(t) ? TAKEN : DECLINED;
}

/* a NUL padded id of width `wa` against one of ID_SLOT bytes, as memcmp of both padded to the wider width */
static int compare_padded(const unsigned char *a, Py_ssize_t wa, const unsigned char *b)
{
    Py_ssize_t j, common = wa < ID_SLOT ? wa : ID_SLOT;
    int c = memcmp(a, b, (size_t)common);
    if (c != 0)
        return c;
    for (j = common; j < ID_SLOT; j++)
        if (b[j])
            return -1;
    for (j = common; j < wa; j++)
        if (a[j])
            return 1;
    return 0;
}

/* A topic whose name is the ID_SLOT bytes at `name` opens: NOT_STREAMABLE when it was seen before (its lines are
 * not together), else its judgments are put in the emptied table. */
static int open_topic(Topics *t, const unsigned char *name, Py_ssize_t length)
{
    uint64_t hash = id_hash(name);
    size_t h;
    Py_ssize_t low = 0, high = t->q_topic_count, k, first, count;
    const unsigned char *q_topics = t->q_topics.buf, *q_docnos = t->q_docnos.buf;
    const int64_t *order = t->q_order.buf, *q_first = t->q_first.buf;
    if (2 * (size_t)(t->topics + 1) > t->name_mask + 1) {   /* the set of names at most half full */
        size_t size = t->name_set != NULL ? 2 * (t->name_mask + 1) : 1024, j;
        int64_t *fresh = calloc(size, sizeof(int64_t));
        if (fresh == NULL)
            return NO_MEMORY;
        for (k = 0; k < t->topics; k++) {
            uint64_t named = id_hash(t->names + ID_SLOT * k);
            for (j = (size_t)(named ^ (named >> 32)) & (size - 1); fresh[j]; j = (j + 1) & (size - 1))
                ;
            fresh[j] = k + 1;
        }
        free(t->name_set);
        t->name_set = fresh;
        t->name_mask = size - 1;
    }
    for (h = (size_t)(hash ^ (hash >> 32)) & t->name_mask; t->name_set[h]; h = (h + 1) & t->name_mask)
        if (memcmp(t->names + ID_SLOT * (t->name_set[h] - 1), name, ID_SLOT) == 0)
            return NOT_STREAMABLE;
    if (!room_for(&t->name_room, t->topics + 1, (void **)&t->names, ID_SLOT, NULL, 0, NULL, 0))
        return NO_MEMORY;
    memcpy(t->names + ID_SLOT * t->topics, name, ID_SLOT);
    t->name_set[h] = ++t->topics;
    if (length > t->name_max)
        t->name_max = length;
    memcpy(t->name, name, ID_SLOT);
    t->name_length = length;
    t->open = 1;
    t->ordinal = t->topics - 1;
    t->rows = t->hits = t->judged = t->used = 0;
    t->sorted = 1;
    /* its qrels topic: a binary search of the sorted names */
    t->code = -1;
    while (low < high) {
        Py_ssize_t mid = (low + high) / 2;
        int c = compare_padded(q_topics + mid * t->q_topic_width, t->q_topic_width, name);
        if (c == 0) {
            t->code = mid;
            break;
        }
        if (c < 0)
            low = mid + 1;
        else
            high = mid;
    }
    if (++t->generation == 0) {   /* wrapped: every slot's generation could be taken for this topic's */
        if (t->table != NULL)
            memset(t->table, 0, (t->mask + 1) * sizeof(TopicSlot));
        t->generation = 1;
    }
    if (t->code < 0)
        return TAKEN;
    first = q_first[t->code];
    count = q_first[t->code + 1] - first;
    if (!room_for(&t->judged_room, count, (void **)&t->judged_docs, ID_SLOT, (void **)&t->judged_qrow,
                  sizeof(int64_t), (void **)&t->judged_by, sizeof(int64_t)))
        return NO_MEMORY;
    for (k = 0; k < count; k++) {
        int64_t row = order[first + k];
        const unsigned char *docno = q_docnos + row * t->q_docno_width;
        Py_ssize_t length = 0;
        int status;
        while (length < t->q_docno_width && docno[length])
            length++;
        if (length > ID_SLOT)
            continue;   /* longer than any docno of this stream: never retrieved */
        memcpy(t->judged_docs + ID_SLOT * t->judged, docno, (size_t)length);
        memset(t->judged_docs + ID_SLOT * t->judged + length, 0, (size_t)(ID_SLOT - length));
        t->judged_qrow[t->judged] = row;
        t->judged_by[t->judged] = -1;
        status = table_room(t);
        if (status != TAKEN)
            return status;
        {
            const unsigned char *id = t->judged_docs + ID_SLOT * t->judged;
            uint64_t key = id_hash(id);
            TopicSlot *s = probe(t, key, id);
            if (s == NULL)
                return DECLINED;
            if (s->generation == t->generation)
                continue;   /* the qrels hold this docno twice (read_qrels refuses that): its first row counts */
            *s = (TopicSlot){key, t->generation, (int32_t)(-t->judged - 1)};
        }
        t->judged++;
        t->used++;
    }
    return TAKEN;
}

/* trec_eval's order of rows a and b of the open topic: score descending, then docno descending */
static inline int ranked_before(const Topics *t, int64_t a, int64_t b)
{
    return t->scores[a] > t->scores[b] ||
           (t->scores[a] == t->scores[b] && memcmp(t->docs + ID_SLOT * a, t->docs + ID_SLOT * b, ID_SLOT) > 0);
}

static void sort_ranked(const Topics *t, int64_t *rows, int64_t *tmp, Py_ssize_t n)
{
    Py_ssize_t i, j, half, a, b;
    if (n <= 24) {
        for (i = 1; i < n; i++) {
            int64_t row = rows[i];
            for (j = i; j > 0 && ranked_before(t, row, rows[j - 1]); j--)
                rows[j] = rows[j - 1];
            rows[j] = row;
        }
        return;
    }
    half = n / 2;
    sort_ranked(t, rows, tmp, half);
    sort_ranked(t, rows + half, tmp, n - half);
    memcpy(tmp, rows, (size_t)half * sizeof(int64_t));
    for (i = 0, a = 0, b = half; a < half; i++)
        rows[i] = (b < n && ranked_before(t, rows[b], tmp[a])) ? rows[b++] : tmp[a++];
}

/* The open topic closes: its num_ret and its judged rows' (topic, rank, qrels row) are kept. */
static int close_topic(Topics *t)
{
    Py_ssize_t j, n = t->rows;
    int ranked = t->sorted;
    if (!push(&t->nret, n))
        return NO_MEMORY;
    if (!room_for(&t->rank_room, t->hits, (void **)&t->rank_of, sizeof(int64_t), NULL, 0, NULL, 0))
        return NO_MEMORY;
    for (j = 0; ranked && j < t->hits; j++) {   /* scores in order: a row's place, moved inside its tie by docnos */
        int64_t row = t->hit_row[j], lo, hi, r, before = 0;
        double s = t->scores[row];
        for (lo = row; lo > 0 && t->scores[lo - 1] == s && row - lo < TOPIC_MAX_TIE; lo--)
            ;
        for (hi = row + 1; hi < n && t->scores[hi] == s && hi - lo <= TOPIC_MAX_TIE; hi++)
            ;
        if (hi - lo > TOPIC_MAX_TIE) {
            ranked = 0;
            break;
        }
        for (r = lo; r < hi; r++)
            before += r != row && memcmp(t->docs + ID_SLOT * r, t->docs + ID_SLOT * row, ID_SLOT) > 0;
        t->rank_of[j] = lo + before;
    }
    if (!ranked && t->hits) {   /* a score rose, or a long tie: the topic's rows sorted */
        int64_t *rows = malloc((size_t)n * sizeof(int64_t)), *tmp = malloc(((size_t)n / 2 + 1) * sizeof(int64_t)),
                *place = malloc((size_t)n * sizeof(int64_t));
        if (rows == NULL || tmp == NULL || place == NULL) {
            free(rows);
            free(tmp);
            free(place);
            return NO_MEMORY;
        }
        for (j = 0; j < n; j++)
            rows[j] = j;
        sort_ranked(t, rows, tmp, n);
        for (j = 0; j < n; j++)
            place[rows[j]] = j;
        for (j = 0; j < t->hits; j++)
            t->rank_of[j] = place[t->hit_row[j]];
        free(rows);
        free(tmp);
        free(place);
    }
    for (j = 0; j < t->hits; j++)
        if (!push(&t->seg, t->ordinal) || !push(&t->pos, t->rank_of[j]) ||
            !push(&t->qrow, t->judged_qrow[t->hit_judgment[j]]))
            return NO_MEMORY;
    t->open = 0;
    return TAKEN;
}

/* Whether the len bytes at q (8 readable) are the open topic's name, which is len bytes long: one word compared for
 * a name of up to 8 bytes (the name's slot is NUL padded), memcmp beyond. */
static inline int same_name(const Topics *t, const unsigned char *q, Py_ssize_t len, int readable)
{
#if defined(__GNUC__) && defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    if (len <= 8 && readable) {
        uint64_t x, name;
        memcpy(&x, q, 8);
        memcpy(&name, t->name, 8);
        return (len == 8 ? x : x & ((1ULL << (8 * len)) - 1)) == name;
    }
#endif
    return memcmp(q, t->name, (size_t)len) == 0;
}

/* One line of the run, located in c (qid, docno, score): into the open topic, or a new one. */
static inline __attribute__((always_inline)) int topic_line(Topics *t, const unsigned char *p, const Columns *c)
{
    unsigned char name[ID_SLOT], *doc;
    uint64_t hash;
    TopicSlot *s;
    Py_ssize_t row;
    int status;
    if (!t->open || c->q_len != t->name_length || !same_name(t, p + c->q_start, c->q_len, c->q_start + 8 <= c->n)) {
        copy_padded(name, p + c->q_start, c->q_len, ID_SLOT, c->q_start + ID_SLOT <= c->n);
        if ((t->open && (status = close_topic(t)) != TAKEN) || (status = open_topic(t, name, c->q_len)) != TAKEN) {
            t->status = status;
            return 0;
        }
    }
    row = t->rows;
    if (row == t->row_room && (row >= INT32_MAX || !room_for(&t->row_room, row + 1, (void **)&t->docs, ID_SLOT,
                                                              (void **)&t->scores, sizeof(double), NULL, 0))) {
        t->status = row >= INT32_MAX ? DECLINED : NO_MEMORY;
        return 0;
    }
    doc = t->docs + ID_SLOT * row;
    copy_padded(doc, p + c->d_start, c->d_len, ID_SLOT, c->d_start + ID_SLOT <= c->n);
    t->scores[row] = c->value;
    if (row && c->value > t->scores[row - 1])
        t->sorted = 0;
    if (2 * (size_t)(t->used + 1) > t->mask + 1 && (status = table_room(t)) != TAKEN) {   /* (no table: mask 0) */
        t->status = status;
        return 0;
    }
    hash = id_hash(doc);
    s = probe(t, hash, doc);
    if (s == NULL) {
        t->status = DECLINED;
        return 0;
    }
    if (s->generation == t->generation) {   /* this docno's slot: a judgment not yet retrieved, or a repeat */
        int64_t k = -(int64_t)s->ref - 1;
        if (s->ref >= 0 || t->judged_by[k] >= 0) {
            t->status = NOT_STREAMABLE;   /* a docno read twice in the topic */
            return 0;
        }
        t->judged_by[k] = row;
        if (!room_for(&t->hit_room, t->hits + 1, (void **)&t->hit_row, sizeof(int64_t), (void **)&t->hit_judgment,
                      sizeof(int64_t), NULL, 0)) {
            t->status = NO_MEMORY;
            return 0;
        }
        t->hit_row[t->hits] = row;
        t->hit_judgment[t->hits++] = k;
    } else {
        *s = (TopicSlot){hash, t->generation, (int32_t)row};
        t->used++;
    }
    t->rows++;
    return 1;
}

static Py_ssize_t split_topics(const unsigned char *p, Py_ssize_t n, Columns *columns)
{
    return split_chunk(p, n, 6, PY_SSIZE_T_MAX, columns, 1);
}

static void topics_free(PyObject *capsule)
{
    Topics *t = PyCapsule_GetPointer(capsule, "irlab.trec._tokenize.topics");
    if (t == NULL)
        return;
    PyBuffer_Release(&t->q_topics);
    PyBuffer_Release(&t->q_docnos);
    PyBuffer_Release(&t->q_order);
    PyBuffer_Release(&t->q_first);
    free(t->docs);
    free(t->scores);
    free(t->judged_docs);
    free(t->judged_qrow);
    free(t->judged_by);
    free(t->hit_row);
    free(t->hit_judgment);
    free(t->rank_of);
    free(t->table);
    free(t->names);
    free(t->name_set);
    free(t->nret.at);
    free(t->seg.at);
    free(t->pos.at);
    free(t->qrow.at);
    free(t);
}

static Topics *topics_of(PyObject *capsule)
{
    return PyCapsule_GetPointer(capsule, "irlab.trec._tokenize.topics");
}

static PyObject *topic_stream(PyObject *self, PyObject *args)
{
    Topics *t = calloc(1, sizeof(Topics));
    PyObject *capsule;
    Py_ssize_t topic_width, docno_width, max_line, topics, rows, r;
    int ok;
    if (t == NULL)
        return PyErr_NoMemory();
    if (!PyArg_ParseTuple(args, "y*ny*ny*y*n", &t->q_topics, &topic_width, &t->q_docnos, &docno_width, &t->q_order,
                          &t->q_first, &max_line)) {
        free(t);
        return NULL;
    }
    t->q_topic_width = topic_width;
    t->q_docno_width = docno_width;
    topics = t->q_first.len / 8 - 1;
    rows = t->q_order.len / 8;
    t->q_topic_count = topics;
    t->max_line = max_line;
    ok = topic_width >= 1 && docno_width >= 1 && topics >= 0 && t->q_topics.len >= topic_width * topics &&
         t->q_docnos.len >= docno_width * rows && max_line >= 1;
    for (r = 0; ok && r <= topics; r++) {   /* first: topic r's rows of order from first[r] to first[r + 1] */
        int64_t f = ((const int64_t *)t->q_first.buf)[r];
        ok = f >= 0 && f <= rows && (r == 0 || f >= ((const int64_t *)t->q_first.buf)[r - 1]);
    }
    for (r = 0; ok && r < rows; r++)
        ok = ((const int64_t *)t->q_order.buf)[r] >= 0 && ((const int64_t *)t->q_order.buf)[r] * docno_width <
             t->q_docnos.len;
    capsule = PyCapsule_New(t, "irlab.trec._tokenize.topics", topics_free);
    if (capsule == NULL) {
        PyBuffer_Release(&t->q_topics);
        PyBuffer_Release(&t->q_docnos);
        PyBuffer_Release(&t->q_order);
        PyBuffer_Release(&t->q_first);
        free(t);
        return NULL;
    }
    if (!ok) {
        Py_DECREF(capsule);
        PyErr_SetString(PyExc_ValueError, "topic_stream: the qrels' widths, rows or topic starts do not match");
        return NULL;
    }
    return capsule;
}

/* topic_feed(stream, data): the chunk's lines into the stream; True when taken, None when split or the stream
 * declines them (the caller reads the run with _Reducer instead), False when the run cannot be streamed (a topic's
 * lines apart, a docno twice in a topic). */
static PyObject *topic_feed(PyObject *self, PyObject *args)
{
    PyObject *capsule;
    Py_buffer data;
    Topics *t;
    Columns c;
    Py_ssize_t lines;
    if (!PyArg_ParseTuple(args, "Oy*", &capsule, &data))
        return NULL;
    if ((t = topics_of(capsule)) == NULL) {
        PyBuffer_Release(&data);
        return NULL;
    }
    c = (Columns){data.len, 4, 0, t->max_line, ID_SLOT, 0, 0, 0, NULL, NULL, NULL, 0, 0, t, 0, 0, 0, 0, 0.0};
    t->status = TAKEN;
    Py_BEGIN_ALLOW_THREADS
    lines = split_topics((const unsigned char *)data.buf, data.len, &c);
    Py_END_ALLOW_THREADS
    PyBuffer_Release(&data);
    if (lines >= 0)
        Py_RETURN_TRUE;
    if (t->status == NO_MEMORY)
        return PyErr_NoMemory();
    if (t->status == NOT_STREAMABLE)
        Py_RETURN_FALSE;
    Py_RETURN_NONE;
}

static PyObject *int64s_bytes(const Int64s *v)
{
    return PyByteArray_FromStringAndSize((const char *)v->at, 8 * v->size);
}

/* topic_result(stream) -> (names, longest, nret, seg, pos, qrow) once every chunk is fed: the topics' names in file
 * order (ID_SLOT bytes each, NUL padded) and the longest's length; per topic its num_ret; per judged retrieved row its
 * topic (place in that order), its 0-based rank and its qrels row (int64 arrays as bytearrays). */
static PyObject *topic_result(PyObject *self, PyObject *args)
{
    PyObject *capsule;
    Topics *t;
    if (!PyArg_ParseTuple(args, "O", &capsule))
        return NULL;
    if ((t = topics_of(capsule)) == NULL)
        return NULL;
    if (t->open && close_topic(t) != TAKEN)
        return PyErr_NoMemory();
    return Py_BuildValue("(NnNNNN)", PyByteArray_FromStringAndSize((const char *)t->names, ID_SLOT * t->topics),
                         t->name_max, int64s_bytes(&t->nret), int64s_bytes(&t->seg), int64s_bytes(&t->pos),
                         int64s_bytes(&t->qrow));
}

static PyMethodDef methods[] = {
    {"split", split, METH_VARARGS,
     "split(data, nfields, value_field, integer, max_line, max_id, values, q_out, q_width, d_out, d_width)\n"
     "-> (lines, q_max, d_max), None (not taken) or False (more lines than capacity).  values: capacity numbers; q_out, d_out: each line's qid and docno NUL\n"
     "padded to q_width and d_width bytes where it fits (all did when q_max <= q_width and d_max <= d_width)."},
    {"mix_keys", mix_keys, METH_VARARGS,
     "mix_keys(topic_idx, words, width, out): out[r] = readers._mix_words' key of int64 topic_idx[r] and the width\n"
     "native uint64 words of row r (C order), bit for bit."},
    {"join_blocks", join_blocks, METH_VARARGS,
     "join_blocks(keys, starts, words, width, table_keys, out_i, out_p) -> count: every (row, p) with keys[row] ==\n"
     "table_keys[p], i ascending, then p; -1 when a row's width uint64 words repeat an earlier row's of its block\n"
     "(blocks from starts; equal keys are candidates, the words decide), -2 when out_i, out_p hold too few."},
    {"presorted_ranks", presorted_ranks, METH_VARARGS,
     "presorted_ranks(score, starts, words, width, rows, max_tie, out) -> True with out[j] = the rank of rows[j] in its\n"
     "block (trec_eval's order), or False when a score rises in a block or ties run longer than max_tie."},
    {"topic_docno_order", topic_docno_order, METH_VARARGS,
     "topic_docno_order(topic, docnos, width, topics, out): out = numpy.lexsort((docnos, topic)) for int64 topic\n"
     "indices in [0, topics) and docnos of width bytes each (an S<width> array's buffer)."},
    {"topic_stream", topic_stream, METH_VARARGS,
     "topic_stream(q_topics, q_topic_width, q_docnos, q_docno_width, q_order, q_first, max_line) -> stream: a run\n"
     "grouped by topic reduced as it is split, against qrels of sorted topic names q_topics (S<q_topic_width>),\n"
     "docnos q_docnos (S<q_docno_width>), topic r's rows q_order[q_first[r]:q_first[r + 1]]."},
    {"topic_feed", topic_feed, METH_VARARGS,
     "topic_feed(stream, data) -> True (taken), None (declined: read it otherwise) or False (not streamable)."},
    {"topic_result", topic_result, METH_VARARGS,
     "topic_result(stream) -> (names, longest, nret, seg, pos, qrow): names ID_SLOT bytes each, int64 bytearrays."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_tokenize", NULL, -1, methods};

PyMODINIT_FUNC PyInit__tokenize(void)
{
    PyObject *m;
    int c;
    for (c = 33; c < 127; c++)
        byte_class[c] = TOKEN;
    byte_class['#'] = OTHER;   /* a comment: the numpy parse and trec_eval's reading notes decide */
    byte_class['\t'] = byte_class['\v'] = byte_class['\f'] = byte_class['\r'] = byte_class[' '] = BLANK;
    byte_class['\n'] = NEWLINE;
    m = PyModule_Create(&module);
    if (m != NULL && PyModule_AddIntConstant(m, "ID_SLOT", ID_SLOT) < 0) {   /* topic_result's bytes per name */
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
