# Reference p-values of the paired tests of Urbano, Lima & Hanjalic (SIGIR 2019) on the
# vectors of cases.csv, computed as the published code does (R/ir_tests.R of
# github.com/julian-urbano/sigir2019-statistical): b = 0, e = d, so e - b = d.
# Run: Rscript paired_tests.R  (writes paired_tests_R.csv; R version in its first line)
cases <- read.csv("cases.csv", colClasses = c("character", "integer", "numeric"))
test_t <- function(b, e) {
  p2 <- tryCatch(t.test(b, e, paired = TRUE, alternative = "two")$p.value, error = function(x) NA)
  p1 <- tryCatch(t.test(b, e, paired = TRUE, alternative = "less")$p.value, error = function(x) NA)
  c(p1, p2)
}
test_wilcoxon <- function(b, e) {
  p2 <- wilcox.test(b, e, paired = TRUE, alternative = "two")$p.value
  p1 <- wilcox.test(b, e, paired = TRUE, alternative = "less")$p.value
  c(p1, p2)
}
test_sign <- function(b, e, min_d = .01) {
  n <- length(b)
  pos <- sum(e - b > min_d)
  eq <- sum(abs(e - b) <= min_d)
  if(eq >= n)
    return(c(NA, NA))
  p2 <- binom.test(pos, n - eq, alternative = "two")$p.value
  p1 <- binom.test(pos, n - eq, alternative = "greater")$p.value
  c(p1, p2)
}
out <- NULL
for (name in unique(cases$case)) {
  e <- cases$d[cases$case == name]
  b <- rep(0, length(e))
  p <- suppressWarnings(rbind(test_t(b, e), test_wilcoxon(b, e), test_sign(b, e)))
  out <- rbind(out, data.frame(case = name, test = c("paired_t", "wilcoxon", "sign"),
                               one_tailed = sprintf("%.17g", p[, 1]),
                               two_tailed = sprintf("%.17g", p[, 2])))
}
con <- file("paired_tests_R.csv", "w")
writeLines(paste("#", R.version.string), con)
write.csv(out, con, row.names = FALSE, quote = FALSE)
close(con)
