package com.contactvalidator;

import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * JUnit extension: one real service for the whole run (started on first use, stopped when the run ends), handed to
 * any test constructor or method that takes a {@link TestService}.
 */
final class RealService implements ParameterResolver {
  @Override
  public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
    return parameter.getParameter().getType() == TestService.class;
  }

  @Override
  public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
    return context.getRoot().getStore(ExtensionContext.Namespace.create(RealService.class))
        .getOrComputeIfAbsent("service", key -> {
          try {
            return TestService.start();
          } catch (Exception e) {
            throw new IllegalStateException(e);
          }
        }, TestService.class);
  }
}
