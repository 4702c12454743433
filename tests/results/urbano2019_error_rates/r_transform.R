# Which mean transforms of the Type II design simIReff's effTransform solves.
#
# simIReff 1.0 (github.com/julian-urbano/simIReff, R/effTransform.R) moves a margin F to a
# target mean with G = pbeta(F, a, b): it minimises (E_G - target)^2 over (a, b) by
# optim(c(1, 1), ..., method = "L-BFGS-B", lower = c(1, 1),
#       control = list(factr = abs.tol^2 / .Machine$double.eps)), abs.tol = 1e-5,
# E_G = integrate(qG, 0, 1, abs.tol = 1e-6, subdivisions = 500), qG(p) = qF(qbeta(p, a, b)),
# and stops with "No successful transformation" when optim's convergence code is not 0.
# The published 02-margins_transform.R calls it in try() and saves only the transforms
# that succeed: a pair whose transform fails is not in the Type II design.
#
# This script runs that optimisation (written out here, not simIReff's code) on scorestd's
# tabulated margins: qF is the inverse of the cdf table, linear between grid points, as
# scorestd.models._grid.table_inverse draws it. Inputs (written by
# `sign_power.py --export DIR`): DIR/grid.bin, DIR/tables.bin (float64 cdf rows on the grid),
# DIR/problems.csv (exp_margin, base_margin, target, mean; margins 0-based).
# Output: one row per problem with optim's a, b, convergence code and message.
#
# Usage: Rscript r_transform.R DIR > DIR/r_transform.csv      (R 4.2.2, base R only)
args <- commandArgs(trailingOnly = TRUE)
dir <- args[1]
grid <- readBin(file.path(dir, "grid.bin"), "double", n = 1e6, endian = "little")
k <- length(grid)
all <- readBin(file.path(dir, "tables.bin"), "double", n = 1e8, endian = "little")
tables <- matrix(all, ncol = k, byrow = TRUE)
problems <- read.csv(file.path(dir, "problems.csv"))
quantile_function <- function(cdf) {
  cdf <- cummax(cdf)
  keep <- !duplicated(cdf)  # the first grid point where the cdf reaches each value
  approxfun(cdf[keep], grid[keep], rule = 2)
}
qfs <- lapply(seq_len(nrow(tables)), function(r) quantile_function(tables[r, ]))
cat("exp_margin,base_margin,target,mean,a,b,convergence,message,reached_mean\n")
for (r in seq_len(nrow(problems))) {
  pr <- problems[r, ]
  qF <- qfs[[pr$exp_margin + 1]]
  mean_of <- function(par) integrate(function(p) qF(qbeta(p, par[1], par[2])), 0, 1,
                                     abs.tol = 1e-6, subdivisions = 500)$value
  o <- try(optim(c(1, 1), function(par) (mean_of(par) - pr$target)^2, method = "L-BFGS-B",
                 lower = c(1, 1), control = list(factr = (1e-5)^2 / .Machine$double.eps)),
           silent = TRUE)
  if (inherits(o, "try-error")) {
    cat(sprintf("%d,%d,%.10g,%.10g,NA,NA,-1,\"%s\",NA\n", pr$exp_margin, pr$base_margin,
                pr$target, pr$mean, gsub("[\n\"]", " ", as.character(o))))
  } else {
    cat(sprintf("%d,%d,%.10g,%.10g,%.8g,%.8g,%d,\"%s\",%.10g\n", pr$exp_margin,
                pr$base_margin, pr$target, pr$mean, o$par[1], o$par[2], o$convergence,
                o$message, mean_of(o$par)))
  }
}
