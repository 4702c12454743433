# Reference values for scorestd's margins fitted as simIReff 1.0 fits them
# (github.com/julian-urbano/simIReff, R/effCont_nks.R and R/effCont_bks.R).
# Run from this folder:  Rscript reference.R > reference.txt
# Inputs (one sample per column, no header):
#   web2010_ndcg20_first6.csv  nDCG@20 of the first six runs of web2010 kept by the
#                              paper's preparation (duplicates and bottom 10% removed)
#   beta_samples.csv           three samples of 50 draws of Beta(0.5, 2)
# R 4.2.2, KernSmooth 2.23-20, ks 1.14.0 (base R otherwise; bde is not on Debian, so its estimator
# is written out below from its definition: bde::bde(x, estimator = "betakernel") is
# Chen's (1999) beta kernel with b = length(x)^(-2/5)).
library(KernSmooth)
cap <- function(x, xmin = 1e-6, xmax = 1 - xmin) pmin(xmax, pmax(xmin, x))
chen <- function(at, x, b) sapply(at, function(a) mean(dbeta(x, a / b + 1, (1 - a) / b + 1)))
for (f in c("web2010_ndcg20_first6.csv", "beta_samples.csv")) {
  X <- as.matrix(read.csv(f, header = FALSE))
  for (j in seq_len(ncol(X))) {
    x <- X[, j]
    # nks: ks::kde's default bandwidth is ks::hpi, which is KernSmooth::dpik(x, level = 2,
    # gridsize = 401)
    h <- dpik(x, level = 2L, gridsize = 401L)
    if (requireNamespace("ks", quietly = TRUE))  # ks 1.14.0 (Debian r-cran-ks): the same
      stopifnot(isTRUE(all.equal(ks::kde(x)$h, h, tolerance = 1e-12)))
    # bks: effCont_bks, with bde's default b and the exact Chen density
    xc <- cap(x)
    b <- length(xc)^(-2/5)
    fhat <- chen(xc, xc, b)
    K0 <- sapply(xc, function(xx) dbeta(xx, xx / b + 1, (1 - xx) / b + 1))
    df <- mean(K0 / fhat)
    sum1 <- integrate(function(a) chen(a, xc, b), 0, 1)$value
    loglik <- sum(log(fhat / sum1))
    cat(sprintf("%s,%d,%.12g,%.12g,%.12g,%.12g\n", f, j, h, b, df, loglik))
  }
}
