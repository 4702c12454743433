# simIReff 1.0's own margin selection, run in R, on the runs the error-rate study keeps.
#
# simIReff (github.com/julian-urbano/simIReff, version 1.0) fits four families to each
# run and keeps the best by AIC (effContFitAndSelect(x, method = "AIC", silent = TRUE), as
# the paper's R/01-margins.R calls it): a truncated normal and a beta by MASS::fitdistr
# (L-BFGS-B), a Gaussian kernel (ks::kde) and a beta kernel (bde::bde). This script sources
# the package's own R files (its other imports, rvinecopulib and np, are not needed to fit
# margins and are not on Debian), keeps the runs as the paper keeps them (duplicates and
# the bottom 10% by mean removed; common.R of github.com/julian-urbano/sigir2019-statistical)
# and prints each run's selected family, its expected value and variance and, for the two
# parametric families, R's fitted parameters (normal: mean and sd of the parent normal;
# beta: shape1, shape2).
#
# R 4.2.2; MASS 7.3-58.2, truncnorm 1.0-8, ks 1.14.0, KernSmooth 2.23-20 (Debian bookworm);
# bde 1.0.1.1 built from CRAN's source into a private library (R CMD INSTALL -l LIB bde).
# Usage: R_LIBS=LIB Rscript simireff_margins.R SIMIREFF_SOURCE DATA MEASURE COLLECTION... > out.csv
#   e.g. Rscript simireff_margins.R simIReff/R src/scorestd/datasets/data err20 \
#        web2010 web2011 web2012 web2013 > simireff_err20.csv      (about 10 min a measure)
suppressMessages({library(ks); library(bde); library(truncnorm); library(MASS)})
args <- commandArgs(TRUE)
for (f in c("eff.R", "effCont-helper.R", "effCont.R", "effCont_beta.R", "effCont_bks.R",
            "effCont_nks.R", "effCont_norm.R", "effFit.R", "effSelect.R", "effFitAndSelect.R"))
  source(file.path(args[1], f))
here <- dirname(sub("^--file=", "", grep("^--file=", commandArgs(FALSE), value = TRUE)))
source(file.path(here, "paper_runs.R"))  # removeDuplicates, removeBottom
measure <- args[3]
cat("collection,run,type,mean,var,p1,p2\n")
for (coll in args[-(1:3)]) {
  dat <- read.csv(file.path(args[2], sprintf("%s_%s.csv", coll, measure)))
  dat <- removeBottom(removeDuplicates(dat), p = .1)
  set.seed(ncol(dat))
  for (i in seq_len(ncol(dat))) {
    eff <- effContFitAndSelect(dat[, i], method = "AIC", silent = TRUE)
    m <- eff$model
    p <- switch(m$type, norm = c(m$mean, m$sd), beta = c(m$shape1, m$shape2), c(NA, NA))
    cat(sprintf("%s,%s,%s,%.10g,%.10g,%.12g,%.12g\n", coll, colnames(dat)[i], m$type, eff$mean,
                eff$var, p[1], p[2]))
  }
}
