/* The floor for Sum and Product (docs/benchmarks.md, "The puzzles' targets, and native speed"): the puzzle of
 * stories/sum-and-product.story solved by hand in C, with counting arrays, the way one
 * would write it for speed: no worlds are stored, each statement is a pass over the
 * pairs 1 < x < y, x + y <= N that recomputes which earlier statements they pass.
 * A benchmark peer only, built by bench/floor.sh; never part of the library.
 *
 *     cc -O2 -o sum_product sum_product.c && ./sum_product 10000
 *
 * prints the worlds left, one "x y" per line, in lexicographic order.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint8_t *products; /* per product: 0, 1 or 2 (= several) pairs */
static uint8_t *sums_bad; /* per sum: some pair of it has a unique product */
static uint8_t *later;    /* per product: pairs still possible after S spoke (0, 1, 2) */
static uint8_t *final_sums;

static void bump(uint8_t *c) {
  if (*c < 2) (*c)++;
}

int main(int argc, char **argv) {
  long n = argc > 1 ? atol(argv[1]) : 100;
  if (n < 5) return 0;
  long max_product = (n / 2) * (n - n / 2) + 1;
  products = calloc(max_product, 1);
  later = calloc(max_product, 1);
  sums_bad = calloc(n + 1, 1);
  final_sums = calloc(n + 1, 1);
  if (!products || !later || !sums_bad || !final_sums) return 1;
#define PAIRS for (long x = 2; x < n; x++) for (long y = x + 1; x + y <= n; y++)
  /* P learns x * y: how many pairs share each product. */
  PAIRS bump(&products[x * y]);
  /* S: "I knew you didn't know": no pair of my sum had a unique product. */
  PAIRS if (products[x * y] == 1) sums_bad[x + y] = 1;
  /* P: "I don't know" (product shared) and S's statement; then P: "now I know". */
  PAIRS if (products[x * y] == 2 && !sums_bad[x + y]) bump(&later[x * y]);
  /* S: "now I know too": one pair of my sum left. */
  PAIRS if (products[x * y] == 2 && !sums_bad[x + y] && later[x * y] == 1) bump(&final_sums[x + y]);
  PAIRS if (products[x * y] == 2 && !sums_bad[x + y] && later[x * y] == 1 && final_sums[x + y] == 1)
    printf("%ld %ld\n", x, y);
  return 0;
}
