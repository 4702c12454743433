# The published tests (R/ir_tests.R of github.com/julian-urbano/sigir2019-statistical,
# commit dc9f891; written out here) on trials drawn by scorestd: p-values rounded to 6
# decimals (.SIGNIF) and compared with alpha = .05 as the published ecdf() does
# (a trial whose sign test has only ties gives NA, which ecdf() drops).
# Usage: Rscript r_tests.R trials.csv > trials.r.csv    (R 4.2.2, base R only)
args <- commandArgs(trailingOnly = TRUE)
x <- as.matrix(read.csv(args[1], header = FALSE))
n <- ncol(x) / 2
alpha <- 0.05
sign_p <- function(b, e, min_d = 0.01) {
  wins <- sum(e - b > min_d)
  ties <- sum(abs(e - b) <= min_d)
  if (ties >= length(b)) return(c(NA, NA))
  c(binom.test(wins, length(b) - ties, alternative = "greater")$p.value,
    binom.test(wins, length(b) - ties, alternative = "two.sided")$p.value)
}
cat("t1,t2,w1,w2,s1,s2\n")
for (r in seq_len(nrow(x))) {
  b <- x[r, 1:n]
  e <- x[r, n + 1:n]
  p <- c(t.test(b, e, paired = TRUE, alternative = "less")$p.value,
         t.test(b, e, paired = TRUE, alternative = "two.sided")$p.value,
         wilcox.test(b, e, paired = TRUE, alternative = "less")$p.value,
         wilcox.test(b, e, paired = TRUE, alternative = "two.sided")$p.value,
         sign_p(b, e))
  cat(paste(ifelse(is.na(p), "NA", as.integer(round(p, 6) <= alpha)), collapse = ","), "\n")
}
