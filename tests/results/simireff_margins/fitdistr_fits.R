# simIReff 1.0's two parametric fits (R/effCont_norm.R, R/effCont_beta.R) on the kept runs
# (fitdistr_emulation.py --write-kept DIR writes them): MASS::fitdistr's L-BFGS-B, its
# parameters and log-likelihood, or its error. R 4.2.2, MASS 7.3-58.2, truncnorm 1.0-8.
# Usage: Rscript fitdistr_fits.R DIR/kept_*.csv > fitdistr_fits.csv
library(MASS)
library(truncnorm)
cap <- function(x, xmin = 1e-6, xmax = 1 - xmin) pmin(xmax, pmax(xmin, x))
cat("file,run,family,fails,p1,p2,loglik,message\n")
for (f in commandArgs(TRUE)) {
  X <- as.matrix(read.csv(f, header = FALSE))
  for (j in seq_len(ncol(X))) {
    x <- X[, j]
    r <- tryCatch({
      fit <- suppressWarnings(fitdistr(x, densfun = function(xx, mu, sigma) {
        dtruncnorm(xx, a = 0, b = 1, mean = mu, sd = sigma)
      }, start = list(mu = mean(x), sigma = sd(x)), lower = list(mu = -Inf, sigma = .05),
      upper = list(mu = Inf, sigma = Inf)))
      c(unname(fit$estimate), fit$loglik, "")
    }, error = function(e) c(NA, NA, NA, conditionMessage(e)))
    cat(sprintf("%s,%d,norm,%s,%.15g,%.15g,%.15g,\"%s\"\n", basename(f), j, r[4] != "",
                as.numeric(r[1]), as.numeric(r[2]), as.numeric(r[3]), r[4]))
    xc <- cap(x); mu_0 <- mean(xc); s2 <- var(xc)
    sh1 <- mu_0 * (mu_0 * (1 - mu_0) / s2 - 1); sh2 <- mu_0 * (mu_0 * (1 - mu_0) / s2 - 1)
    r <- tryCatch({
      fit <- suppressWarnings(fitdistr(xc, densfun = "beta", start = list(shape1 = sh1, shape2 = sh2),
                                       lower = list(shape1 = 1, shape2 = 1)))
      c(unname(fit$estimate), fit$loglik, "")
    }, error = function(e) c(NA, NA, NA, conditionMessage(e)))
    cat(sprintf("%s,%d,beta,%s,%.15g,%.15g,%.15g,\"%s\"\n", basename(f), j, r[4] != "",
                as.numeric(r[1]), as.numeric(r[2]), as.numeric(r[3]), r[4]))
  }
}
