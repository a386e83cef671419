import { CloseCircleFilled } from '@ant-design/icons';
import type { TFunction } from 'i18next';

/**
 * A select's clear button in the interface language: antd's `allowClear` names it "Clear" in every
 * language (issue 37 item 19); as an object it takes the label (and then needs its icon back).
 */
export const clearable = (t: TFunction) => ({ clearIcon: <CloseCircleFilled />, label: t('common.clear') });
