# Where simIReff 1.0's truncated normal (R/effCont_norm.R) can be fitted at all.
# Run from this folder:  Rscript truncnorm_fits.R > truncnorm_fits.csv
# R 4.2.2, MASS 7.3-58.2, truncnorm 1.0-8 (Debian bookworm).
# Inputs: the runs the error-rate study keeps (duplicates and the bottom 10% by mean
# removed; scorestd.experiments.error_rate_pool.prepare_collection), one run per column, no header:
#   kept_adhoc8_ap.csv (50 topics x 114 runs), kept_web2010_ndcg20.csv (48 x 70).
# effContFit wraps effCont_norm in try(): where fitdistr stops with an error the family
# is not a candidate for that run. fitdistr's error here is "optimization failed"
# (optim's L-BFGS-B convergence code 52, abnormal termination in the line search) or
# "L-BFGS-B needs finite values of 'fn'".
library(MASS)
library(truncnorm)
cat("file,run,fails,message\n")
for (f in c("kept_adhoc8_ap.csv", "kept_web2010_ndcg20.csv")) {
  X <- as.matrix(read.csv(f, header = FALSE))
  for (j in seq_len(ncol(X))) {
    x <- X[, j]
    msg <- tryCatch({
      suppressWarnings(fitdistr(x, densfun = function(xx, mu, sigma) {
        dtruncnorm(xx, a = 0, b = 1, mean = mu, sd = sigma)
      }, start = list(mu = mean(x), sigma = sd(x)), lower = list(mu = -Inf, sigma = .05),
      upper = list(mu = Inf, sigma = Inf)))
      ""
    }, error = function(e) conditionMessage(e))
    cat(sprintf("%s,%d,%s,\"%s\"\n", f, j, msg != "", msg))
  }
}
