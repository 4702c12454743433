# simIReff 1.0's own discrete margin selection, run in R, on the P@10 runs the error-rate
# study keeps.
#
# For a discrete measure the paper's R/01-margins.R (github.com/julian-urbano/
# sigir2019-statistical) calls effDiscFitAndSelect(dat[, i], support(measure), method =
# "AIC", silent = TRUE): simIReff fits five candidates to the run's scores on the support
# (0, 0.1, ..., 1 for P@10) and keeps the best by AIC: a beta-binomial on the support
# index (MASS::fitdistr with extraDistr::dbbinom, shapes >= 1, L-BFGS-B from the method
# of moments) and Wang & van Ryzin's ordered discrete kernel with the bandwidth that R's
# np selects (np::npudensbw(..., bwmethod = "cv.ls", okertype = "wangvanryzin")) times 1,
# 2, 5 and 10 (a multiplied bandwidth above 1 fails). This script sources the package's
# own R files (its other imports, rvinecopulib, bde and ks, are not needed for discrete
# margins), keeps the runs as the paper keeps them (duplicates and the bottom 10% by mean
# removed; R/common.R of the same repository; the seed set as 01-margins.R sets it,
# although neither family draws random numbers: np's multistart uses its own fixed seed)
# and prints for each run: the selected family (bbinom, dks(1), dks(2), dks(5), dks(10)),
# its expected value and variance, the beta-binomial's shapes, np's cross-validated
# bandwidth (before the multiplier), the AIC of each candidate (NA where it failed), and
# the selected pmf on the support (p0 = P(score = 0), ..., p10 = P(score = 1)).
#
# R 4.2.2; MASS 7.3-58.2, extraDistr 1.9.1, boot 1.3-28.1, quadprog 1.5-8, quantreg 5.94,
# cubature 2.0.4.6 (Debian bookworm); np 0.60-9 (CRAN's release of 2018-10-24, the one
# current when simIReff 1.0 and the paper's margins were made) built from CRAN's source
# into a private library (R CMD INSTALL -l LIB np_0.60-9).
# Usage: R_LIBS=LIB Rscript simireff_p10.R SIMIREFF_SOURCE DATA MEASURE COLLECTION... > out.csv
#   e.g. R_LIBS=LIB Rscript simireff_p10.R simIReff/R src/scorestd/datasets/data \
#        p10 adhoc5 adhoc6 adhoc7 adhoc8 > simireff_p10.csv          (13 min on a shared machine)
#   and for RR, whose 1,001 pmf columns are dropped from the recorded file:
#   R_LIBS=LIB Rscript simireff_p10.R simIReff/R src/scorestd/datasets/data \
#        rr adhoc5 adhoc6 adhoc7 adhoc8 | cut -d, -f1-13 > simireff_rr.csv
suppressMessages({library(np); library(extraDistr); library(MASS)})
options(np.messages = FALSE)
args <- commandArgs(TRUE)
for (f in c("eff.R", "effDisc-helper.R", "effDisc.R", "effDisc_bbinom.R", "effDisc_dks.R",
            "effFit.R", "effSelect.R", "effFitAndSelect.R"))
  source(file.path(args[1], f))
here <- dirname(sub("^--file=", "", grep("^--file=", commandArgs(FALSE), value = TRUE)))
source(file.path(here, "paper_runs.R"))  # removeDuplicates, removeBottom
measure <- args[3]
s <- support(measure)
k <- length(s) - 1
cat("collection,run,type,mean,var,shape1,shape2,bw,aic_bbinom,aic_dks1,aic_dks2,aic_dks5,aic_dks10,",
    paste0("p", 0:k, collapse = ","), "\n", sep = "")
for (coll in args[-(1:3)]) {
  dat <- read.csv(file.path(args[2], sprintf("%s_%s.csv", coll, measure)))
  dat <- removeBottom(removeDuplicates(dat), p = .1)
  set.seed(ncol(dat))
  for (i in seq_len(ncol(dat))) {
    x <- dat[, i]
    # effDiscFit's candidates in its order, each kept to report its AIC and parameters;
    # the selection is effDiscFitAndSelect's own call (checked equal below)
    cands <- list(bbinom = NA, dks1 = NA, dks2 = NA, dks5 = NA, dks10 = NA)
    try(cands$bbinom <- effDisc_bbinom(x, s), silent = TRUE)
    for (m in c(1, 2, 5, 10))
      try(cands[[paste0("dks", m)]] <- effDisc_dks(x, s, mult = m), silent = TRUE)
    aic <- sapply(cands, function(e) if (is.list(e)) AIC(e) else NA)
    eff <- effDiscFitAndSelect(x, s, method = "AIC", silent = TRUE)
    stopifnot(isTRUE(all.equal(AIC(eff), min(aic, na.rm = TRUE))))
    m <- eff$model
    bb <- if (is.list(cands$bbinom)) c(cands$bbinom$model$shape1, cands$bbinom$model$shape2)
          else c(NA, NA)
    bw <- if (is.list(cands$dks1)) cands$dks1$model$bw$bw else NA
    pmf <- deff(s, eff)
    cat(sprintf("%s,%s,%s,%.10g,%.10g,%.12g,%.12g,%.12g,%s,%s\n", coll, colnames(dat)[i],
                m$type, eff$mean, eff$var, bb[1], bb[2], bw,
                paste(sprintf("%.10g", aic), collapse = ","),
                paste(sprintf("%.17g", pmf), collapse = ",")))
  }
}
